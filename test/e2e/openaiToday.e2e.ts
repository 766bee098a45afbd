/**
 * Issue 30, item 5, in Chromium: the OpenAI preset as its API answers after the retirements of
 * 2026-12-11. The preset calls its real host (https://api.openai.com/v1), which Playwright
 * routes to the strict dated fake (test/fixtures/fakeProviders/openaiOn.ts), keeping every
 * answer the page got (support/chatLog.ts).
 *
 * - A new player, the model left at its default, plays a whole game on 2026-12-12: in English
 *   on a desktop, and in Korean on a 390 px phone.
 * - The same on 2027-01-15 (gpt-4.1-mini shut down), with refusals whose `param` is masked.
 * - A family the game has never seen: the player picks gpt-6.1-sol from the live list and plays
 *   to the end (on 2026-12-12; and on 2027-01-15 in Korean, with `param` null): its first
 *   refusal teaches the game, and its cut-off replies are asked again, never stored.
 * - Issue 38, part 4: an account whose list has no gpt-5.6-terra (in English on a desktop, in
 *   Korean on a 390 px phone). The key screen describes the default until the list is read (as
 *   soon as the key is typed), then shows the model that will play, gpt-5.4-mini; that is the
 *   model every chat request names, and no notice of a replaced model follows.
 *
 * What each game is held to, from what the fake was sent and what it answered: no chat request
 * names a retired, Responses-only, completions-only or non-chat model; every one names the
 * model that plays (and the model field shows it); at most one refused request per parameter;
 * and every paragraph of the story is, word for word, a reply the fake finished with "stop".
 * To tell the replies apart, the fake starts each story text with the index of the request it
 * answers ("Scene 12." / "장면 12.").
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  gameReply,
  startFakeModelServer,
  userPrompt,
  type ChatRequestBody,
  type FakeModelServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../fixtures/fakeModelServer';
import {
  OPENAI_ACCOUNT_WITHOUT_TERRA,
  OPENAI_COMPLETIONS_ONLY_MODELS,
  OPENAI_GPT_6_MODELS,
  OPENAI_RESPONSES_ONLY_MODELS,
  OPENAI_RETIRED_2026_12_11,
  OPENAI_SHUT_DOWN_2027_01_14,
  openAiGoneOn,
  openAiModelsOn,
  openAiProfileId,
  openAiProfileOn,
  type OpenAiAccount,
  type OpenAiDate,
  type ParamStyle,
} from '../fixtures/fakeProviders';
import { baseUrl } from './support/backend';
import { collectPageErrors, horizontalOverflow, launchBrowser } from './support/browser';
import { logProviderHost, type LoggedCall } from './support/chatLog';
import {
  newDeviceContext,
  playToTheEnd,
  realErrors,
  shot,
  signIn,
  submitKey,
} from './support/providerJourney';
import { say, type Lang } from './support/words';

const OPENAI_BASE = 'https://api.openai.com/v1';
const API_KEY = 'sk-openai-today-e2e';
const DEFAULT_MODEL = 'gpt-5.6-terra';
const GPT_6 = 'gpt-6.1-sol';
const GAME_TIMEOUT = 120_000;
const SETTINGS_KEY = 'persist:taleweaver/settings';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// ---- The fake: OpenAI on a day, each story text marked with its request ---------------------

const HANGUL = /[가-힣]/;
const STORY_FIELDS = ['storyStart', 'storySegment'] as const;

/** gameReply, with each story text starting with the index of the request it answers. */
function markedGameReply(body: ChatRequestBody, request: RecordedRequest): ScriptedReply {
  const reply = gameReply(body);
  const json = reply.json as Record<string, unknown>;
  for (const field of STORY_FIELDS) {
    const text = json[field];
    if (typeof text !== 'string') continue;
    json[field] = `${HANGUL.test(text) ? '장면' : 'Scene'} ${request.index}. ${text}`;
  }
  return reply;
}

async function startOpenAiFake(
  date: OpenAiDate,
  paramStyle: ParamStyle = 'named',
  account?: OpenAiAccount,
) {
  const fake = await startFakeModelServer({
    profile: openAiProfileId(date, paramStyle),
    validKeys: [API_KEY],
    ...(account && { models: openAiModelsOn(date, account) }),
  });
  fake.replyWith(markedGameReply);
  return fake;
}

// ---- A player ------------------------------------------------------------------------------

interface Player {
  context: BrowserContext;
  page: Page;
  errors: string[];
  calls: LoggedCall[];
}

const REFUSAL_PIECES = [
  'Unsupported parameter',
  'Unsupported value',
  'does not exist or you do not have access',
  'only supported in v1/responses',
];
/** The wait notice of a reply cut off by its length limit, in English and Korean. */
const CUT_OFF_NOTICES = ['was cut off by its length limit', '길이 제한에 걸려 잘렸습니다'];
const WATCH_KEY = 'openai-today-watch';

interface Watched {
  /** Every paragraph ever stored in the story log (its text, without the buttons). */
  paragraphs: string[];
  /** The first refusal words seen anywhere on the page, if any. */
  refusal: string | null;
  /** Whether the cut-off notice was ever shown. */
  toldCutOff: boolean;
}

const NOTHING_WATCHED = '{"paragraphs":[],"refusal":null,"toldCutOff":false}';

/**
 * Watches every page of the context from before the app loads: each paragraph that ever
 * enters the story log (not the one being written), and any provider refusal on the page.
 */
async function watchStory(context: BrowserContext): Promise<void> {
  await context.addInitScript(
    ({
      key,
      pieces,
      notices,
      empty,
    }: Record<'key' | 'empty', string> & Record<'pieces' | 'notices', string[]>) => {
      const read = (): { paragraphs: string[]; refusal: string | null; toldCutOff: boolean } =>
        JSON.parse(sessionStorage.getItem(key) ?? empty);
      const look = () => {
        const seen = read();
        let changed = false;
        document
          .querySelectorAll('.story-log .story-paragraph:not(.story-paragraph--writing)')
          .forEach((paragraph) => {
            const text = paragraph.firstChild?.textContent ?? '';
            if (!seen.paragraphs.includes(text)) {
              seen.paragraphs.push(text);
              changed = true;
            }
          });
        const html = document.documentElement?.outerHTML ?? '';
        if (!seen.toldCutOff && notices.some((notice) => html.includes(notice))) {
          seen.toldCutOff = true;
          changed = true;
        }
        if (seen.refusal === null) {
          const found = pieces.find((piece) => html.includes(piece));
          if (found !== undefined) {
            seen.refusal = found;
            changed = true;
          }
        }
        if (changed) sessionStorage.setItem(key, JSON.stringify(seen));
      };
      new MutationObserver(look).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    },
    { key: WATCH_KEY, pieces: REFUSAL_PIECES, notices: CUT_OFF_NOTICES, empty: NOTHING_WATCHED },
  );
}

const watched = async (page: Page): Promise<Watched> =>
  JSON.parse(
    (await page.evaluate((key) => sessionStorage.getItem(key), WATCH_KEY)) ?? NOTHING_WATCHED,
  ) as Watched;

async function newPlayer(fake: FakeModelServer, device: 'desktop' | 'phone'): Promise<Player> {
  const context = await newDeviceContext(browser, device);
  await watchStory(context);
  const calls = await logProviderHost(context, OPENAI_BASE, fake);
  const page = await context.newPage();
  return { context, page, errors: collectPageErrors(page), calls };
}

const modelField = (page: Page, lang: Lang) => page.getByLabel(say(lang, 'model'), { exact: true });

/** The model dropdown's options, as values and the words shown. */
const modelOptions = (page: Page, lang: Lang) =>
  modelField(page, lang)
    .locator('option')
    .evaluateAll((options) =>
      options.map((option) => ({
        value: (option as HTMLOptionElement).value,
        text: (option.textContent ?? '').trim(),
      })),
    );

const selectedText = (page: Page, lang: Lang) =>
  modelField(page, lang).evaluate((select) => {
    const element = select as HTMLSelectElement;
    return element.selectedOptions[0]?.textContent?.trim() ?? '';
  });

/** The OpenAI preset chosen: the model field is left as it is. */
async function chooseOpenAi(page: Page, lang: Lang) {
  await page.getByLabel(say(lang, 'provider')).selectOption({ label: 'OpenAI' });
}

async function typeKey(page: Page, lang: Lang) {
  await page.getByLabel(say(lang, 'apiKey'), { exact: true }).fill(API_KEY);
}

/** What the model field shows for the default before the list is read: a word, not an id. */
const DESCRIBED = { en: 'Default', kr: '기본값' } as const;
/** What it says beneath: what the default is. */
const THE_DEFAULT = {
  en: 'The default is the newest GPT-5.x mini on your account.',
  kr: '기본값은 내 계정의 최신 GPT-5.x mini입니다.',
} as const;

/** The default once the list names it, as the model field shows it. */
const asTheDefault = (label: string, lang: Lang) =>
  `${label} (${lang === 'en' ? 'default' : '기본값'})`;

/** Waits until the model field shows this model (the list read once the key was typed). */
async function waitForShownModel(page: Page, lang: Lang, model: string) {
  await modelField(page, lang).waitFor();
  await page.waitForFunction(
    ({ label, model }) => {
      const field = [...document.querySelectorAll('label')].find(
        (element) => element.textContent === label,
      );
      const select = field && document.getElementById(field.htmlFor);
      return select instanceof HTMLSelectElement && select.value === model;
    },
    { label: say(lang, 'model'), model },
    { timeout: 10_000 },
  );
}

/** Back to the key screen through the header's Home link (no reload: the live list stays). */
async function backToKeyScreen(page: Page, lang: Lang) {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: lang === 'en' ? 'Home' : '홈', exact: true })
    .click();
  await page.waitForURL(`${baseUrl()}/`);
  await modelField(page, lang).waitFor();
}

// ---- What the fake was sent and answered ----------------------------------------------------

const isChat = (call: { method: string; path: string }) =>
  call.method === 'POST' && call.path.endsWith('/chat/completions');
const isModelList = (call: { method: string; path: string }) =>
  call.method === 'GET' && call.path.endsWith('/models');
const chatRequests = (fake: FakeModelServer) => fake.requests.filter(isChat);

/**
 * The chat requests that name a model no chat request may name on this day: retired, shut
 * down, Responses-only, completions-only, or anything the day's catalogue lists as not chatting.
 */
function forbiddenModels(fake: FakeModelServer, date: OpenAiDate): string[] {
  const catalogue = openAiModelsOn(date);
  const chats = new Set(catalogue.filter((entry) => entry.chat).map((entry) => entry.id));
  const never = new Set([
    ...openAiGoneOn(date),
    ...OPENAI_RESPONSES_ONLY_MODELS,
    ...OPENAI_COMPLETIONS_ONLY_MODELS,
  ]);
  return chatRequests(fake)
    .map((request) => String(request.body.model))
    .filter((id) => never.has(id) || !chats.has(id) || /-pro$/.test(id));
}

/**
 * The parameter each refused chat request was refused for, as OpenAI names it in `param` (the
 * day's profile with `param` named, whatever style the fake played): [] when none was.
 */
function refusedParameters(fake: FakeModelServer, date: OpenAiDate): string[] {
  const named = openAiProfileOn(date);
  return chatRequests(fake)
    .filter((request) => request.status !== undefined && request.status >= 400)
    .map((request) => {
      const entry = named.catalogue.find((model) => model.id === request.body.model);
      const refusal = entry && named.validate(request.body, entry);
      const error = (refusal?.body as { error?: { param?: unknown } } | undefined)?.error;
      return `${request.status} ${String(error?.param ?? 'not a parameter')}`;
    });
}

/** How many refused requests each parameter had; every count must be at most one. */
function refusalsPerParameter(refused: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const refusal of refused) counts[refusal] = (counts[refusal] ?? 0) + 1;
  return counts;
}

/** The story text of a reply's content ('' when it is not a whole story reply). */
function storyTextOf(content: string): string {
  try {
    const reply = JSON.parse(content) as Record<string, unknown>;
    const text = STORY_FIELDS.map((field) => reply[field]).find(
      (value) => typeof value === 'string',
    );
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

const MARK = /^(?:Scene|장면) (\d+)\. /;
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Holds each paragraph the story ever stored to the reply it came from: it carries a request's
 * mark, that request's reply finished with "stop", and the paragraph is that reply's story
 * text word for word. No paragraph comes from a reply that was cut off ("length") or ended
 * without a finish reason. Returns the replies that were cut off, and the paragraphs' marks.
 */
function expectStoryOnlyFromWholeReplies(calls: readonly LoggedCall[], paragraphs: string[]) {
  const replies = calls.flatMap((call) => (call.reply ? [call.reply] : []));
  const byIndex = new Map(replies.map((reply) => [reply.index, reply]));
  expect(replies.filter((reply) => reply.index === -1)).toEqual([]);
  const cutOff = replies.filter((reply) => reply.finishReason !== 'stop');
  const problems: string[] = [];
  const marks: number[] = [];
  for (const paragraph of paragraphs) {
    const mark = MARK.exec(paragraph);
    if (!mark) {
      problems.push(`no request's mark: ${paragraph.slice(0, 60)}`);
      continue;
    }
    const index = Number(mark[1]);
    marks.push(index);
    const reply = byIndex.get(index);
    if (!reply) problems.push(`request ${index}: no reply logged`);
    else if (reply.finishReason !== 'stop') {
      problems.push(`request ${index}: finished ${String(reply.finishReason)}, yet in the story`);
    } else if (squeeze(storyTextOf(reply.content)) !== squeeze(paragraph)) {
      problems.push(`request ${index}: the story differs from the reply: ${paragraph}`);
    }
  }
  expect(problems).toEqual([]);
  return { cutOff, marks };
}

/** The settings the app keeps (redux-persist: each field JSON-encoded inside one object). */
async function storedSettings(page: Page): Promise<Record<string, unknown>> {
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), SETTINGS_KEY);
  const fields = JSON.parse(stored ?? '{}') as Record<string, string>;
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, JSON.parse(value) as unknown]),
  );
}

/**
 * What the dropdown must never offer on this day. Not the ids shut down on 2027-01-14: the list
 * names them with that shutdown_date, and the page goes by its own clock (the 2027-01-15 test
 * checks them against it).
 */
function neverOffered(date: OpenAiDate): string[] {
  const catalogue = openAiModelsOn(date);
  return [
    ...openAiGoneOn(date),
    ...OPENAI_RESPONSES_ONLY_MODELS,
    ...catalogue.filter((entry) => !entry.chat).map((entry) => entry.id),
  ].filter((id) => !OPENAI_SHUT_DOWN_2027_01_14.includes(id));
}

// ---- 1 and 2: a new player, the model left at its default --------------------------------------

interface DefaultGame {
  date: OpenAiDate;
  paramStyle: ParamStyle;
  lang: Lang;
  device: 'desktop' | 'phone';
  shots: string;
}

async function playOnTheDefault(game: DefaultGame) {
  const { date, lang } = game;
  const fake = await startOpenAiFake(date, game.paramStyle);
  const player = await newPlayer(fake, game.device);
  const { page, context, calls } = player;
  try {
    await signIn(page, lang);
    await chooseOpenAi(page, lang);
    // Before the list is read: the default described, no id.
    expect(await modelField(page, lang).inputValue()).toBe('');
    expect(await selectedText(page, lang)).toBe(DESCRIBED[lang]);
    await page.getByText(THE_DEFAULT[lang]).waitFor();
    // Once the key is typed the list is read, and the field shows the model that will play.
    await typeKey(page, lang);
    await waitForShownModel(page, lang, DEFAULT_MODEL);
    expect(await selectedText(page, lang)).toBe(asTheDefault('GPT-5.6 Terra', lang));
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, `${game.shots}-1-key`);
    await submitKey(page, lang);

    // The model list was read with the key, before any chat request; the key check asked the
    // model that plays, and was not refused.
    const list = fake.requests.findIndex(isModelList);
    expect(list).toBeGreaterThanOrEqual(0);
    expect(fake.requests[list]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const [keyCheck] = chatRequests(fake);
    expect(list).toBeLessThan(keyCheck!.index);
    expect(keyCheck!.body.model).toBe(DEFAULT_MODEL);
    expect(userPrompt(keyCheck!.body)).toBe('hi');
    expect(fake.requests.filter((request) => (request.status ?? 0) >= 400)).toEqual([]);

    const turns = await playToTheEnd(page, lang, {
      playingShot: `${game.shots}-2-turn`,
      playingShotAfter: 2,
      endingShot: `${game.shots}-3-ending`,
    });
    expect(turns).toBe(7);

    // Every chat request named the chosen default, and none a model that cannot chat today.
    const chats = chatRequests(fake);
    expect(chats.length).toBeGreaterThan(turns + 2);
    expect(forbiddenModels(fake, date)).toEqual([]);
    expect(chats.filter((request) => request.body.model !== DEFAULT_MODEL)).toEqual([]);
    // At most one refused request per parameter over the whole game (none is expected: the
    // family's rule for GPT-5.6 is known, effort none with a temperature).
    const refused = refusedParameters(fake, date);
    expect(Object.values(refusalsPerParameter(refused)).filter((n) => n > 1)).toEqual([]);
    expect(refused).toEqual([]);
    expect(
      chats.filter(
        (request) =>
          'max_tokens' in request.body ||
          typeof request.body.max_completion_tokens !== 'number' ||
          (request.body.reasoning_effort !== 'none' && userPrompt(request.body) !== 'hi'),
      ),
    ).toEqual([]);

    // The story is made of whole replies only, each as the fake sent it.
    const seen = await watched(page);
    const { cutOff, marks } = expectStoryOnlyFromWholeReplies(calls, seen.paragraphs);
    // The opening, and one paragraph for each turn (the last is the conclusion).
    expect(marks.length).toBe(turns + 1);
    expect(cutOff.filter((reply) => marks.includes(reply.index))).toEqual([]);
    if (lang === 'kr') {
      const prompts = chats.map((request) => userPrompt(request.body)).filter((p) => p !== 'hi');
      expect(prompts.filter((prompt) => !HANGUL.test(prompt))).toEqual([]);
      expect(seen.paragraphs.filter((paragraph) => !HANGUL.test(paragraph))).toEqual([]);
    }
    expect(seen.refusal).toBeNull();
    expect(cutOff).toEqual([]);
    expect(seen.toldCutOff).toBe(false);
    expect(await horizontalOverflow(page)).toBe(0);

    // The model that played is the one kept, and the one the model field shows, marked as the
    // default, among the live list's chat models only.
    expect((await storedSettings(page)).model).toBe(DEFAULT_MODEL);
    await backToKeyScreen(page, lang);
    expect(await modelField(page, lang).inputValue()).toBe(DEFAULT_MODEL);
    expect(await selectedText(page, lang)).toBe(asTheDefault('GPT-5.6 Terra', lang));
    const offered = (await modelOptions(page, lang)).map((option) => option.value);
    expect(offered).toContain(GPT_6);
    expect(offered.filter((id) => neverOffered(date).includes(id))).toEqual([]);
    expect(offered.filter((id) => /-pro$|-instruct$/.test(id))).toEqual([]);
    await shot(page, `${game.shots}-4-key-after`);
    expect(realErrors(player.errors)).toEqual([]);
    return { fake, calls, offered };
  } finally {
    await context.close();
    await fake.close();
  }
}

describe('a new player on the OpenAI preset, the model left at its default', () => {
  test(
    '2026-12-12, in English: a whole game on gpt-5.6-terra, no retired or non-chat model asked, only whole replies in the story',
    async () => {
      const { offered } = await playOnTheDefault({
        date: '2026-12-12',
        paramStyle: 'named',
        lang: 'en',
        device: 'desktop',
        shots: 'openai-today-2026-12-12-en',
      });
      // gpt-4.1-mini is still served on this day, and offered.
      expect(offered).toContain('gpt-4.1-mini');
      expect(offered.filter((id) => OPENAI_RETIRED_2026_12_11.includes(id))).toEqual([]);
    },
    GAME_TIMEOUT,
  );

  test(
    '2026-12-12, in Korean on a 390 px phone: the same, every prompt in Korean',
    async () => {
      await playOnTheDefault({
        date: '2026-12-12',
        paramStyle: 'named',
        lang: 'kr',
        device: 'phone',
        shots: 'openai-today-2026-12-12-kr-phone',
      });
    },
    GAME_TIMEOUT,
  );

  test(
    '2027-01-15 (gpt-4.1-mini shut down), refusals with param masked: the same, gpt-4.1-mini never asked',
    async () => {
      const { fake, offered } = await playOnTheDefault({
        date: '2027-01-15',
        paramStyle: 'masked',
        lang: 'en',
        device: 'desktop',
        shots: 'openai-today-2027-01-15-en',
      });
      expect(
        chatRequests(fake).filter((request) =>
          OPENAI_SHUT_DOWN_2027_01_14.includes(String(request.body.model)),
        ),
      ).toEqual([]);
      // The list still names gpt-4.1-mini, with its shutdown_date: the page offers it only while
      // its own clock is before that date. (The browser keeps the machine's date: a page moved
      // to 2027 loses its wallet session, whose token the server issued today.)
      const pastShutdown = Date.now() >= Date.parse('2027-01-14T00:00:00Z');
      for (const id of OPENAI_SHUT_DOWN_2027_01_14) {
        expect(offered.includes(id)).toBe(!pastShutdown);
      }
    },
    GAME_TIMEOUT,
  );
});

// ---- 3: a family the game has never seen ------------------------------------------------------

interface NewFamilyGame {
  date: OpenAiDate;
  paramStyle: ParamStyle;
  lang: Lang;
  model: string;
  shots: string;
}

async function playANewFamily(game: NewFamilyGame) {
  const { date, lang } = game;
  const fake = await startOpenAiFake(date, game.paramStyle);
  const player = await newPlayer(fake, 'desktop');
  const { page, context, calls } = player;
  try {
    await signIn(page, lang);
    await chooseOpenAi(page, lang);
    await typeKey(page, lang);
    await submitKey(page, lang);
    // The live list is read now: back on the key screen, the player picks the new family.
    await backToKeyScreen(page, lang);
    const offered = await modelOptions(page, lang);
    expect(offered.map((option) => option.value)).toEqual(
      expect.arrayContaining([...OPENAI_GPT_6_MODELS]),
    );
    await modelField(page, lang).selectOption(game.model);
    await shot(page, `${game.shots}-1-key`);
    const before = fake.requests.length;
    await submitKey(page, lang);
    expect((await storedSettings(page)).model).toBe(game.model);

    const turns = await playToTheEnd(page, lang, {
      playingShot: `${game.shots}-2-turn`,
      playingShotAfter: 2,
      endingShot: `${game.shots}-3-ending`,
    });
    expect(turns).toBe(7);

    const chats = chatRequests(fake).filter((request) => request.index >= before);
    expect(chats.filter((request) => request.body.model !== game.model)).toEqual([]);
    expect(forbiddenModels(fake, date)).toEqual([]);
    // The key check on the new model passed (its status is all it reads).
    expect(userPrompt(chats[0]!.body)).toBe('hi');
    expect(chats[0]!.status).toBe(200);

    // The first refusals teach the game: at most one refused request per parameter, and after
    // a parameter's refusal no request sends what was refused.
    const refused = refusedParameters(fake, date);
    const perParameter = refusalsPerParameter(refused);
    expect(Object.entries(perParameter).filter(([, n]) => n > 1)).toEqual([]);
    expect(refused).toContain('400 temperature');
    // The one refusal is the first game request's (the key check sends no temperature).
    const refusals = chats.filter((request) => (request.status ?? 0) >= 400);
    expect(refusals.map((request) => request.index)).toEqual([chats[1]!.index]);
    const taught = chats.filter((request) => request.index > chats[1]!.index);
    expect(taught.filter((request) => request.body.temperature !== undefined)).toEqual([]);
    expect(taught.filter((request) => 'max_tokens' in request.body)).toEqual([]);

    // A family no rule names is asked at effort low with room to think (max_completion_tokens
    // above the reply's own), so its replies are not cut off: every game reply finished.
    const replies = calls.flatMap((call) => (call.reply ? [call.reply] : []));
    const cutOffGame = replies.filter(
      (reply) =>
        reply.finishReason !== 'stop' && userPrompt(fake.requests[reply.index]!.body) !== 'hi',
    );
    expect(cutOffGame).toEqual([]);
    expect(taught.filter((request) => request.body.reasoning_effort !== 'low')).toEqual([]);
    const seen = await watched(page);
    const { marks } = expectStoryOnlyFromWholeReplies(calls, seen.paragraphs);
    expect(marks.length).toBe(turns + 1);
    expect(seen.toldCutOff).toBe(false);
    expect(seen.refusal).toBeNull();
    if (lang === 'kr') {
      expect(seen.paragraphs.filter((paragraph) => !HANGUL.test(paragraph))).toEqual([]);
    }

    // What the refusals taught is kept for this model (a reload does not ask again).
    const lessons = (await storedSettings(page)).modelLessons as Record<string, unknown[]>;
    expect(lessons[`openai ${OPENAI_BASE} ${game.model}`]).toEqual(
      expect.arrayContaining([{ feature: 'temperature' }]),
    );
    expect(realErrors(player.errors)).toEqual([]);
    return { fake, calls, chats, refused, cutOffGame };
  } finally {
    await context.close();
    await fake.close();
  }
}

describe('a family the game has never seen, picked from the live list', () => {
  test(
    `${GPT_6} on 2026-12-12: plays to the end, temperature refused once, effort low with room to think, nothing cut off`,
    async () => {
      await playANewFamily({
        date: '2026-12-12',
        paramStyle: 'named',
        lang: 'en',
        model: GPT_6,
        shots: 'openai-today-gpt-6',
      });
    },
    GAME_TIMEOUT,
  );

  test(
    `${GPT_6} on 2027-01-15 in Korean, refusals with param null: the refusal's own words teach the game`,
    async () => {
      await playANewFamily({
        date: '2027-01-15',
        paramStyle: 'null',
        lang: 'kr',
        model: GPT_6,
        shots: 'openai-today-gpt-6-kr-param-null',
      });
    },
    GAME_TIMEOUT,
  );
});

// ---- 4: an account whose list has no gpt-5.6-terra (issue 38, part 4) -------------------------

const THE_ACCOUNTS_DEFAULT = 'gpt-5.4-mini';
/** The notice of a saved model replaced, in English and Korean (ModelReplacedNotice). */
const REPLACED_NOTICES = ['no longer offers', '모델을 제공하지 않아'];

async function playWithoutTerra(lang: Lang, device: 'desktop' | 'phone', shots: string) {
  const date: OpenAiDate = '2026-12-12';
  const fake = await startOpenAiFake(date, 'named', OPENAI_ACCOUNT_WITHOUT_TERRA);
  const player = await newPlayer(fake, device);
  const { page, context } = player;
  try {
    await signIn(page, lang);
    await chooseOpenAi(page, lang);
    // Before the key: the default in words; gpt-5.6-terra is named nowhere as the default.
    expect(await modelField(page, lang).inputValue()).toBe('');
    expect(await selectedText(page, lang)).toBe(DESCRIBED[lang]);
    await page.getByText(THE_DEFAULT[lang]).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, `${shots}-1-key-before-the-list`);

    // The key typed: the account's list is read with it, before anything else is asked, and
    // the field shows the model that will play, among the account's chat models only.
    await typeKey(page, lang);
    await waitForShownModel(page, lang, THE_ACCOUNTS_DEFAULT);
    expect(await selectedText(page, lang)).toBe(asTheDefault('GPT-5.4 mini', lang));
    await page.getByText(THE_DEFAULT[lang]).waitFor();
    const offered = (await modelOptions(page, lang)).map((option) => option.value);
    expect(offered).not.toContain(DEFAULT_MODEL);
    expect(offered).not.toContain('');
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/models',
    ]);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, `${shots}-2-key-after-the-list`);

    await submitKey(page, lang);
    // The key check asked for the model the field showed, and was not refused; no notice.
    const [keyCheck] = chatRequests(fake);
    expect(userPrompt(keyCheck!.body)).toBe('hi');
    expect(keyCheck!.body.model).toBe(THE_ACCOUNTS_DEFAULT);
    expect(keyCheck!.status).toBe(200);
    const html = await page.content();
    expect(REPLACED_NOTICES.filter((notice) => html.includes(notice))).toEqual([]);
    expect((await storedSettings(page)).model).toBe(THE_ACCOUNTS_DEFAULT);
    await shot(page, `${shots}-3-load-or-create`);

    const turns = await playToTheEnd(page, lang, { endingShot: `${shots}-4-ending` });
    expect(turns).toBe(7);
    // Every chat request of the game named the model the key screen showed.
    const chats = chatRequests(fake);
    expect(chats.length).toBeGreaterThan(turns + 2);
    expect(chats.filter((request) => request.body.model !== THE_ACCOUNTS_DEFAULT)).toEqual([]);
    expect(fake.requests.filter((request) => (request.status ?? 0) >= 400)).toEqual([]);
    expect((await watched(page)).refusal).toBeNull();
    expect(realErrors(player.errors)).toEqual([]);
  } finally {
    await context.close();
    await fake.close();
  }
}

describe('an account whose list has no gpt-5.6-terra: the key screen shows the model that plays', () => {
  test(
    'in English on a desktop: described until the key is typed, then gpt-5.4-mini, which plays a whole game',
    async () => {
      await playWithoutTerra('en', 'desktop', 'openai-without-terra-en');
    },
    GAME_TIMEOUT,
  );

  test(
    'in Korean on a 390 px phone: the same',
    async () => {
      await playWithoutTerra('kr', 'phone', 'openai-without-terra-kr-phone');
    },
    GAME_TIMEOUT,
  );
});

/**
 * Issue 22 in Chromium, the player's hand on the story: Write it again (a rewritten failure
 * stays a failure, and the rewrites reach the ending and the leaderboard), Stop (during a turn
 * and during the opening), edits, the story's memory corrected and a note pinned, all of it
 * kept over a reload; and read-aloud, with the browser's own voices and with a stand-in for the
 * speech engine (the one edge a test cannot drive for real). Against the shared e2e server and
 * a fake model server.
 */
import type { BrowserContext, Page } from 'playwright-core';
import {
  gameReply,
  userPrompt,
  type ChatRequestBody,
  type CompletionReply,
} from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import { DESKTOP, PHONE, collectPageErrors, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectAndEnterKey } from './support/journey';
import { storedStories } from './support/storiesDb';
import { browser, model, withBrowserAndModel } from './support/session';

const API_KEY = 'sk-hand-e2e-7c41';
withBrowserAndModel([API_KEY]);

/** Requests whose storyStart or storySegment stream slowly, so that Stop comes mid-paragraph. */
let slowStory = false;

/** The default game, each scene numbered (a rewrite reads differently), slow when asked. */
beforeEach(() => {
  slowStory = false;
  let scenes = 0;
  model.replyWith((body) => {
    const reply: CompletionReply = gameReply(body);
    const json = reply.json as Record<string, unknown>;
    for (const field of ['storyStart', 'storySegment']) {
      if (typeof json[field] !== 'string') continue;
      scenes += 1;
      json[field] = `Scene ${scenes}. ${json[field] as string}`;
      if (slowStory) return { ...reply, chunkChars: 4, chunkDelayMs: 250 };
    }
    return reply;
  });
});
afterEach(() => model.replyWith(gameReply));

type Lang = 'en' | 'kr';
const words = (lang: Lang) => (en: string, kr: string) => (lang === 'en' ? en : kr);

/** Every roll the page makes fails (until the test says otherwise): the game rolls with
 * Math.random, and 0 is below any odds. */
function everyRollFails() {
  Math.random = () => 0;
}

async function newPage({ viewport = DESKTOP, failing = false } = {}): Promise<{
  context: BrowserContext;
  page: Page;
}> {
  const context = await browser.newContext({ viewport });
  await injectTestWallet(context, new TestWallet(1));
  if (failing) await context.addInitScript(everyRollFails);
  return { context, page: await context.newPage() };
}

/** Connects the wallet and enters the key, in the interface language; ends at load-or-create. */
async function signIn(page: Page, lang: Lang) {
  if (lang === 'en') return connectAndEnterKey(page, { url: baseUrl(), model, apiKey: API_KEY });
  await page.goto(baseUrl());
  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: '지갑 연결' }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel('제공자').selectOption('custom');
  await page.getByLabel('기본 URL').fill(model.url);
  await page.getByLabel('모델', { exact: true }).fill('fake-model');
  await page.getByLabel('API 키').fill(API_KEY);
  await page.getByRole('button', { name: '제출' }).click();
  await page.getByRole('button', { name: '새 게임 시작' }).waitFor();
}

/** Signs in, enters the key, and starts a story for this hero; ends at the opening's options. */
async function startStory(page: Page, first: string, last: string, lang: Lang = 'en') {
  const t = words(lang);
  await signIn(page, lang);
  await page.getByRole('button', { name: t('Start New Game', '새 게임 시작') }).click();
  await page.locator('.genre-chip').first().click();
  await page.getByRole('button', { name: t('Submit Genre', '장르 제출') }).click();
  await page.getByRole('button', { name: t('Portrait 3', '초상화 3'), exact: true }).click();
  await page.getByRole('button', { name: t('Choose me', '이 캐릭터로 할래요') }).click();
  await page.getByLabel(t('First Name', '이름'), { exact: true }).fill(first);
  await page.getByLabel(t('Last Name', '성'), { exact: true }).fill(last);
  await page.getByRole('button', { name: t('Submit', '제출'), exact: true }).click();
  await turnDone(page);
}

const options = (page: Page) => page.locator('.options__list button');
const paragraphs = (page: Page) => page.locator('.story-log__written .story-paragraph');
const choices = (page: Page) => page.locator('.story-log__written .story-choice');
const lastPrompt = () => userPrompt(model.requests.at(-1)!.body as ChatRequestBody);

/** The turn's options are offered and nothing is loading. */
async function turnDone(page: Page) {
  await options(page).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 30_000,
  });
}

async function chooseFirstOption(page: Page) {
  await options(page).first().click();
  await turnDone(page);
}

async function waitUntil(what: string, check: () => boolean, timeoutMs = 10_000) {
  await waitUntilAsync(what, async () => check(), timeoutMs);
}

async function waitUntilAsync(what: string, check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface StoredGame {
  turnCount?: number;
  storyNote?: string;
  storyLog?: unknown[];
}

/**
 * After a reload: the key again, then the story from the saved list. `saved` says what MyStoriesDB
 * must hold before the reload: the auto-save comes 100 ms after the story's last change, and a
 * reload before it would load the save before.
 */
async function reloadAndLoad(
  page: Page,
  name: string,
  lang: Lang = 'en',
  saved: (game: StoredGame) => boolean = () => true,
) {
  const t = words(lang);
  await waitUntilAsync(`${name}'s story is saved as the test left it`, async () =>
    (await storedStories<{ game: StoredGame }>(page)).some((story) => saved(story.game)),
  );
  await page.reload();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByRole('button', { name: t('Submit', '제출') }).click();
  const load = t(`Load ${name}'s story`, `${name}의 스토리 불러오기`);
  await page.getByRole('button', { name: load }).click();
  await page.locator('.play-header').waitFor();
}

test('a rewritten failure stays a failure; the rewrites reach the ending and the leaderboard', async () => {
  const { context, page } = await newPage({ failing: true });
  const errors = collectPageErrors(page);
  await startStory(page, 'Rhea', 'Rewrite');
  await chooseFirstOption(page);
  await chooseFirstOption(page);
  // Turn 2's choice carries its badge (SPEC.md section 2: from the 2nd turn).
  const badge = choices(page).nth(1).locator('.outcome-badge');
  expect(await badge.textContent()).toMatch(/FAILURE/);
  const before = await paragraphs(page).last().textContent();
  // From here every roll would succeed: a rewrite that rolled again would show it.
  await page.evaluate(() => {
    Math.random = () => 0.999;
  });

  await page.getByRole('button', { name: 'Write it again (3 left)' }).click();
  await page.getByRole('button', { name: 'Write it again (2 left)' }).waitFor({ timeout: 30_000 });
  await turnDone(page);
  expect(await paragraphs(page).count()).toBe(3);
  expect(await choices(page).count()).toBe(2);
  expect(await paragraphs(page).last().textContent()).not.toBe(before);
  expect(await badge.textContent()).toMatch(/FAILURE/);
  expect(lastPrompt()).toContain('The dice decided: "failure"');
  expect(lastPrompt()).toContain('Turn 2.');
  await screenshot(page, 'hand-rewrite-en-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'hand-rewrite-en-phone');
  await page.setViewportSize(DESKTOP);

  // Story so far comes when first opened: a failed download says so in place (the game goes
  // on around it), and Retry fetches it again.
  const memoryChunk = /\/assets\/story-memory\.[0-9a-f]+\.js$/;
  await page.route(memoryChunk, (route) => route.abort('internetdisconnected'));
  await page.getByText('Story so far').click();
  await page.getByRole('alert').filter({ hasText: 'could not be downloaded' }).waitFor();
  expect(await options(page).count()).toBeGreaterThan(0);
  await screenshot(page, 'hand-memory-failed-en-desktop');
  await page.unroute(memoryChunk);
  await page.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('button', { name: 'Correct entry 2' }).waitFor();
  await page.setViewportSize(PHONE);
  await screenshot(page, 'hand-memory-en-phone');
  await page.setViewportSize(DESKTOP);
  await page.getByText('Story so far').click();

  const ending = page.getByRole('heading', { name: 'Adventure Complete' });
  for (let turn = 3; !(await ending.isVisible()); turn += 1) {
    if (turn > 10) throw new Error('the story did not end by turn 10');
    await options(page).first().click();
    await options(page).first().or(ending).first().waitFor({ timeout: 30_000 });
  }
  await page.getByText('1 rewrite').waitFor();
  await page.getByRole('button', { name: 'Save Adventure Results' }).click();
  await page.getByText('Adventure results saved!').waitFor();
  await screenshot(page, 'hand-ending-en-desktop');

  await page.goto(`${baseUrl()}/leaderboard`);
  const row = page.locator('tbody tr').filter({ hasText: 'Rhea Rewrite' });
  await row.waitFor();
  expect(await row.locator('.cell-score').textContent()).toMatch(/\d1 rewrite$/);
  // The browser's own line for the download blocked above; the app logs nothing of it.
  expect(errors).toEqual(['Failed to load resource: net::ERR_INTERNET_DISCONNECTED']);
  await context.close();
});

test('Stop drops the partial paragraph and keeps the choice; a stopped or interrupted turn survives a reload with its roll', async () => {
  const { context, page } = await newPage();
  const errors = collectPageErrors(page);

  // Stopping the opening goes back to the name, with everything chosen kept.
  await connectAndEnterKey(page, { url: baseUrl(), model, apiKey: API_KEY });
  await page.getByRole('button', { name: 'Start New Game' }).click();
  await page.locator('.genre-chip').nth(1).click();
  await page.getByRole('button', { name: 'Submit Genre' }).click();
  await page.getByRole('button', { name: 'Portrait 4', exact: true }).click();
  await page.getByRole('button', { name: 'Choose me' }).click();
  await page.getByLabel('First Name').fill('Sid');
  await page.getByLabel('Last Name').fill('Stopper');
  slowStory = true;
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('button', { name: 'Stop' }).click();
  expect(await page.getByLabel('First Name').inputValue()).toBe('Sid');
  expect(await page.getByLabel('Last Name').inputValue()).toBe('Stopper');
  await screenshot(page, 'hand-opening-stopped-en-desktop');
  slowStory = false;
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await turnDone(page);
  expect(await page.locator('.character-panel__name').textContent()).toBe('Sid Stopper');
  // Read-aloud with Chromium's own voices: the controls show only if it has one for English.
  const englishVoices = await page.evaluate(
    () =>
      window.speechSynthesis?.getVoices().filter((voice) => voice.lang.startsWith('en')).length ??
      0,
  );
  expect(await page.getByRole('button', { name: 'Read aloud' }).count()).toBe(
    englishVoices > 0 ? 1 : 0,
  );

  // A turn stopped while its paragraph streams.
  slowStory = true;
  const chosen = await options(page).first().locator('.option__text').textContent();
  await options(page).first().click();
  await page.locator('.story-paragraph--writing').getByText(/Scene/).waitFor();
  await page.keyboard.press('Escape');
  await page.getByText(/You stopped this paragraph/).waitFor();
  // Focus moved to the way on.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Write it again/);
  expect(await page.locator('.story-paragraph--writing').count()).toBe(0);
  expect(await paragraphs(page).count()).toBe(1);
  expect(await choices(page).last().textContent()).toContain(chosen!);
  expect(await options(page).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
  // The fetch was aborted: the fake server's stream ended long before its last chunk.
  const stream = model.requests.at(-1)!.streamed!;
  await waitUntil('the stopped stream has ended', () => stream.endedAt !== null);
  const sent = stream.deltas.map((delta) => delta.content).join('');
  expect(sent.length).toBeLessThan(200);
  await screenshot(page, 'hand-turn-stopped-en-desktop');

  slowStory = false;
  await reloadAndLoad(page, 'Sid Stopper', 'en', (game) =>
    JSON.stringify(game.storyLog).includes(chosen!),
  );
  await page.getByText(/You stopped this paragraph/).waitFor();
  expect(await choices(page).last().textContent()).toContain(chosen!);
  await page.getByRole('button', { name: 'Write it again (3 left)' }).click();
  await turnDone(page);
  expect(await paragraphs(page).count()).toBe(2);
  expect(await page.locator('.play-header__line').nth(1).textContent()).toBe('Turns: 1');
  await page.getByRole('button', { name: 'Write it again (2 left)' }).waitFor();

  // A reload mid-turn does not roll the choice again: the turn comes back stopped, its choice
  // and roll kept, to be written again (a rewrite, as a Stop would have been).
  slowStory = true;
  const next = await options(page).first().locator('.option__text').textContent();
  await options(page).first().click();
  const rolled = await choices(page).count();
  await page.locator('.story-paragraph--writing').getByText(/Scene/).waitFor();
  slowStory = false;
  // The roll is saved before its paragraph is written: that save is what the reload finds.
  await reloadAndLoad(
    page,
    'Sid Stopper',
    'en',
    (game) => game.turnCount === 2 && JSON.stringify(game.storyLog).includes(next!),
  );
  await page.getByText(/You stopped this paragraph/).waitFor();
  expect(await choices(page).count()).toBe(rolled);
  expect(await choices(page).last().textContent()).toContain(next!);
  expect(await options(page).count()).toBe(0);
  await page.getByRole('button', { name: 'Write it again (3 left)' }).click();
  await turnDone(page);
  expect(await page.locator('.play-header__line').nth(1).textContent()).toBe('Turns: 2');
  expect(errors).toEqual([]);
  await context.close();
});

test('in Korean, from the keyboard: an edited paragraph, a corrected memory and a pinned note reach the model and survive a reload', async () => {
  const { context, page } = await newPage({ viewport: PHONE });
  const errors = collectPageErrors(page);
  await startStory(page, '서연', '한', 'kr');
  await chooseFirstOption(page);

  // Edit the latest paragraph: Enter on the button, Ctrl+Enter to save.
  await page.getByRole('button', { name: '문단 고치기' }).focus();
  await page.keyboard.press('Enter');
  const field = page.getByRole('textbox', { name: /마지막 문단을 고치세요/ });
  await field.fill('당신은 젖은 돌계단에 주저앉아 숨을 고른다. 종소리가 멎었다.');
  await page.keyboard.press('Control+Enter');
  await page.locator('.story-log__written .story-edited').getByText('수정됨').waitFor();
  // Its summary is written again from the edited text.
  await waitUntil('the summary of the edited paragraph is asked for', () =>
    model.requests.some((request) => userPrompt(request.body).includes('종소리가 멎었다.')),
  );

  // Story so far, from the keyboard: open it, correct the first entry, pin a note.
  await page.locator('.story-memory__summary', { hasText: '지금까지의 이야기' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: '1번 항목 바로잡기' }).focus();
  await page.keyboard.press('Enter');
  await page
    .getByRole('textbox', { name: '이 기억 바로잡기' })
    .fill('한서연은 항구에서 편지를 받았다.');
  await page.keyboard.press('Control+Enter');
  // Back on the entry's own button.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-entry'))).toBe('0');
  await page.getByRole('textbox', { name: /고정 메모/ }).focus();
  await page.keyboard.type('서연은 높은 곳을 무서워한다.');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByText('고정됨').waitFor();
  await screenshot(page, 'hand-memory-kr-phone');
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'hand-memory-kr-desktop');

  await chooseFirstOption(page);
  const turnPrompt = userPrompt(
    model.requests.filter((request) => userPrompt(request.body).includes('턴.')).at(-1)!
      .body as ChatRequestBody,
  );
  expect(turnPrompt).toContain('- 한서연은 항구에서 편지를 받았다.');
  expect(turnPrompt).toContain(
    '플레이어가 고정한 메모(이야기가 이를 따르게 하되, 주사위 결과는 절대 바꾸지 마세요): 서연은 높은 곳을 무서워한다.',
  );

  await reloadAndLoad(
    page,
    '한서연',
    'kr',
    (game) => game.turnCount === 2 && game.storyNote === '서연은 높은 곳을 무서워한다.',
  );
  expect(await page.locator('.story-log__written .story-edited').count()).toBe(1);
  await page.getByText('지금까지의 이야기').click();
  expect(await page.getByRole('textbox', { name: /고정 메모/ }).inputValue()).toBe(
    '서연은 높은 곳을 무서워한다.',
  );
  await page.getByText('한서연은 항구에서 편지를 받았다.').waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

/** A stand-in for the speech engine: these voices, and every utterance recorded. */
function speechEngine(voices: string[]) {
  const spoken: { text: string; lang: string }[] = [];
  const listed = voices.map((lang) => ({
    lang,
    name: `Test ${lang}`,
    voiceURI: `test-${lang}`,
    localService: true,
    default: false,
  }));
  const engine = Object.assign(new EventTarget(), {
    speaking: false,
    pending: false,
    paused: false,
    getVoices: () => listed,
    speak: (utterance: { text: string; lang: string }) => {
      spoken.push({ text: utterance.text, lang: utterance.lang });
    },
    cancel: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
  });
  class Utterance extends EventTarget {
    lang = '';
    voice: unknown = null;
    constructor(readonly text: string) {
      super();
    }
  }
  Object.defineProperty(window, 'speechSynthesis', { value: engine, configurable: true });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', {
    value: Utterance,
    configurable: true,
  });
  Object.assign(window, { spokenAloud: spoken });
}

test('read aloud: hidden without a voice for the language, and in its voice with one', async () => {
  // A Korean voice only: no controls in English; once the interface is Korean, they read.
  const { context, page } = await newPage();
  await context.addInitScript(speechEngine, ['ko-KR']);
  await startStory(page, 'Ivo', 'Aloud');
  expect(await page.getByRole('button', { name: 'Read aloud' }).count()).toBe(0);
  expect(await page.getByLabel('Read new paragraphs aloud').count()).toBe(0);
  await page.getByLabel('Language').selectOption('kr');
  const read = page.getByRole('button', { name: '소리 내어 읽기' });
  await read.first().click();
  const spoken = () =>
    page.evaluate(
      () => (window as unknown as { spokenAloud: { text: string; lang: string }[] }).spokenAloud,
    );
  const opening = await paragraphs(page)
    .first()
    .evaluate((paragraph) => paragraph.firstChild?.textContent);
  expect(await spoken()).toEqual([{ text: opening, lang: 'ko-KR' }]);
  expect(await read.first().getAttribute('aria-pressed')).toBe('true');

  await page.getByLabel('새 문단 자동으로 읽기').check();
  await chooseFirstOption(page);
  const heard = await spoken();
  expect(heard).toHaveLength(2);
  const latest = await paragraphs(page)
    .last()
    .evaluate((paragraph) => paragraph.firstChild?.textContent);
  expect(heard[1]).toEqual({ text: latest, lang: 'ko-KR' });
  expect(latest).not.toBe(opening);
  await screenshot(page, 'hand-read-aloud-kr-desktop');
  await context.close();
});

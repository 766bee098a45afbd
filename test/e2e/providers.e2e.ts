/**
 * Issue 11 in Chromium: every provider preset plays a whole game. The hosted presets (Groq,
 * OpenAI, OpenRouter, Together AI) call their real hosts, which Playwright routes to a strict
 * fake of that provider (support/providerRoute.ts); the local preset and Custom call a fake
 * directly, CORS and all. The Groq preset with its default settings untouched, in English and
 * in Korean; a saved model Groq retired, replaced with a notice; the local server's CORS hint;
 * and a refused feature negotiated away with nothing but the story seen by the player.
 *
 * A watcher in every page (watchForLeaks) records any reasoning text or provider refusal that
 * reaches the page at any moment of the game, not only at the end.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  REASONING_TEXT,
  gameReply,
  startFakeModelServer,
  userPrompt,
  type ChatRequestBody,
  type FakeModelServer,
  type ProfileId,
  type RecordedRequest,
} from '../fixtures/fakeModelServer';
import { baseUrl } from './support/backend';
import { collectPageErrors, horizontalOverflow, launchBrowser } from './support/browser';
import { routeProviderHost, type ProviderRoute } from './support/providerRoute';
import {
  newDeviceContext,
  playToTheEnd,
  realErrors,
  shot,
  signIn,
  submitKey,
} from './support/providerJourney';
import { say, type Lang } from './support/words';

const API_KEY = 'sk-providers-e2e';
const GAME_TIMEOUT = 90_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// ---- What must never reach the page ------------------------------------------------------

/** Pieces of the fake's reasoning text: any one of them on the page is reasoning shown. */
const REASONING_PIECES = REASONING_TEXT.split('. ').map((sentence) => sentence.slice(0, 24));
/** Words of the refusals the strict fakes send: the player must never see them mid-game. */
const REFUSAL_PIECES = [
  'Unsupported parameter',
  'Unsupported value',
  'does not support streaming',
  'does not exist or you do not have access',
];
const LEAK_KEY = 'providers-e2e-leak';

/**
 * Watches every page of the context, from before the app loads: the first time one of the
 * pieces is anywhere in the document (text or attribute), it is kept in sessionStorage.
 */
async function watchForLeaks(context: BrowserContext): Promise<void> {
  await context.addInitScript(
    ({ pieces, key }: { pieces: string[]; key: string }) => {
      const look = () => {
        const html = document.documentElement?.outerHTML ?? '';
        const found = pieces.find((piece) => html.includes(piece));
        if (found !== undefined && sessionStorage.getItem(key) === null) {
          sessionStorage.setItem(key, found);
        }
      };
      new MutationObserver(look).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    },
    { pieces: [...REASONING_PIECES, ...REFUSAL_PIECES], key: LEAK_KEY },
  );
}

/** What the watcher saw: null when nothing leaked. */
const leaked = (page: Page) =>
  page.evaluate((key) => sessionStorage.getItem(key), LEAK_KEY) as Promise<string | null>;

// ---- A player ------------------------------------------------------------------------------

interface Player {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function newPlayer(device: 'desktop' | 'phone' = 'desktop'): Promise<Player> {
  const context = await newDeviceContext(browser, device);
  await watchForLeaks(context);
  const page = await context.newPage();
  return { context, page, errors: collectPageErrors(page) };
}

// ---- What the fakes were sent ----------------------------------------------------------------

const isChat = (request: RecordedRequest) =>
  request.method === 'POST' && request.path.endsWith('/chat/completions');
const isModelList = (request: RecordedRequest) =>
  request.method === 'GET' && request.path.endsWith('/models');
const chatBodies = (fake: FakeModelServer) => fake.requests.filter(isChat).map((r) => r.body);

/** The rules each request body broke, as '<index>: <rule>' lines; [] when none. */
function broken(
  bodies: readonly ChatRequestBody[],
  rules: Record<string, (body: ChatRequestBody) => boolean>,
): string[] {
  return bodies.flatMap((body, index) =>
    Object.entries(rules)
      .filter(([, holds]) => !holds(body))
      .map(([rule]) => `${index}: ${rule} (${JSON.stringify({ ...body, messages: undefined })})`),
  );
}

const jsonModeWhileStreaming = (body: ChatRequestBody) =>
  body.response_format !== undefined && body.stream === true;

/** The key went to the provider's model list, before any chat request. */
function expectModelListReadWithKey(fake: FakeModelServer) {
  const list = fake.requests.findIndex(isModelList);
  expect(list).toBeGreaterThanOrEqual(0);
  expect(fake.requests[list]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(list).toBeLessThan(fake.requests.findIndex(isChat));
}

/** A game plays both streamed turns and whole replies in JSON mode. */
function expectStreamingAndJsonMode(bodies: readonly ChatRequestBody[]) {
  expect(bodies.some((body) => body.stream === true)).toBe(true);
  expect(bodies.some((body) => body.response_format?.type === 'json_object')).toBe(true);
}

/**
 * Every call to the provider's host was answered by the fake without a refusal, and the page
 * got the fake's own CORS header ('*'; Playwright's stand-in would be the page's origin).
 */
function expectRoutedCleanly({ calls, seen }: ProviderRoute, fake: FakeModelServer, base: string) {
  expect(calls.length).toBeGreaterThan(0);
  // Every request the fake saw came in through the provider's own host.
  expect(calls.length).toBe(fake.requests.length);
  expect(calls.filter((call) => !call.url.startsWith(`${base}/`))).toEqual([]);
  expect(calls.filter((call) => call.status >= 400)).toEqual([]);
  expect(calls.filter((call) => call.sentAllowOrigin !== '*')).toEqual([]);
  expect(seen.length).toBe(calls.length);
  expect(seen.filter((response) => response.allowOrigin !== '*')).toEqual([]);
}

// ---- 1 and 2: each hosted preset through its own host ---------------------------------------

interface HostedPreset {
  label: string;
  profile: ProfileId;
  /** The real base URL the preset must call. */
  baseUrl: string;
  defaultModel: string;
  /** What every chat request to this provider must look like. */
  rules: Record<string, (body: ChatRequestBody) => boolean>;
}

const GPT_OSS = 'openai/gpt-oss-120b';

const GROQ: HostedPreset = {
  label: 'Groq',
  profile: 'groq',
  baseUrl: 'https://api.groq.com/openai/v1',
  defaultModel: GPT_OSS,
  rules: {
    'model is openai/gpt-oss-120b': (body) => body.model === GPT_OSS,
    "reasoning_effort is 'low'": (body) => body.reasoning_effort === 'low',
    'no response_format with stream: true': (body) => !jsonModeWhileStreaming(body),
  },
};

const HOSTED: readonly HostedPreset[] = [
  GROQ,
  {
    label: 'OpenAI',
    // OpenAI as it answers after the GPT-5 snapshots' retirement (issue 30).
    profile: 'openai-2026-12-12',
    baseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-5.6-terra',
    rules: {
      'model is gpt-5.6-terra': (body) => body.model === 'gpt-5.6-terra',
      "reasoning_effort is 'none' (GPT-5.1 and later)": (body) => body.reasoning_effort === 'none',
      'max_completion_tokens, not max_tokens': (body) =>
        typeof body.max_completion_tokens === 'number' && !('max_tokens' in body),
      'a temperature only with effort none': (body) =>
        !('temperature' in body) || body.reasoning_effort === 'none',
    },
  },
  {
    label: 'OpenRouter',
    profile: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: GPT_OSS,
    rules: {
      'model is openai/gpt-oss-120b': (body) => body.model === GPT_OSS,
      "reasoning is {effort: 'low'}": (body) =>
        JSON.stringify(body.reasoning) === JSON.stringify({ effort: 'low' }),
    },
  },
  {
    label: 'Together AI',
    profile: 'together',
    baseUrl: 'https://api.together.xyz/v1',
    defaultModel: GPT_OSS,
    rules: {
      'model is openai/gpt-oss-120b': (body) => body.model === GPT_OSS,
      "reasoning_effort is 'low'": (body) => body.reasoning_effort === 'low',
      'no response_format with stream: true': (body) => !jsonModeWhileStreaming(body),
    },
  },
];

const COST_WORDS = {
  en: { panel: 'Story so far', turn2: 'Turn 2', tokens: /^[\d,]+ prompt \+ [\d,]+ reply tokens/ },
  kr: {
    panel: '지금까지의 이야기',
    turn2: '2번째 턴',
    tokens: /^프롬프트 [\d,]+ \+ 응답 [\d,]+ 토큰/,
  },
} as const;

/**
 * Issue 40, part 3: after a turn, Story so far shows its tokens as the provider reported them
 * (each hosted fake reports usage as its provider does: Groq unasked, OpenAI and Together when
 * asked with stream_options, OpenRouter always, with its cost), and the dollars only where the
 * provider gives a price (OpenRouter's cost).
 */
async function expectTurnCost(page: Page, lang: Lang, preset: HostedPreset, shots: string) {
  const words = COST_WORDS[lang];
  const panel = page.locator('details.story-memory').filter({ hasText: words.panel }).first();
  await panel.locator('summary').click();
  const latest = panel.locator('.turn-cost__row').filter({ hasText: words.turn2 });
  await latest.waitFor();
  const told = (await latest.locator('dd').textContent()) ?? '';
  expect(told).toMatch(words.tokens);
  if (preset.profile === 'openrouter') expect(told).toMatch(/ · \$0\.\d+/);
  else expect(told).not.toContain('$');
  await panel.locator('.turn-cost').scrollIntoViewIfNeeded();
  await shot(page, `${shots}-cost`);
  await panel.locator('summary').click();
}

/**
 * A whole game with a hosted preset, its model left at the default: Groq's preset not even
 * chosen (it is the default provider), the others chosen by their label.
 */
async function playHosted(preset: HostedPreset, lang: Lang, shots: string) {
  const fake = await startFakeModelServer({ profile: preset.profile, validKeys: [API_KEY] });
  const player = await newPlayer();
  const { page } = player;
  try {
    const route = await routeProviderHost(player.context, preset.baseUrl, fake);
    await signIn(page, lang);
    const providerField = page.getByLabel(say(lang, 'provider'));
    if (preset === GROQ) {
      expect(await providerField.inputValue()).toBe('groq');
    } else {
      await providerField.selectOption({ label: preset.label });
    }
    const modelField = page.getByLabel(say(lang, 'model'), { exact: true });
    // The model left to the default: described, not named, until the provider's list is read.
    expect(await modelField.inputValue()).toBe('');
    await page.getByLabel(say(lang, 'apiKey'), { exact: true }).fill(API_KEY);
    // Read as soon as the key is typed: the field shows the default chosen from it (Groq's as
    // the model selected, a text field's as its placeholder).
    await page.waitForFunction(
      ({ field, model }) =>
        field instanceof HTMLSelectElement
          ? field.value === model
          : (field as HTMLInputElement).placeholder.startsWith(`${model} (`),
      { field: await modelField.elementHandle(), model: preset.defaultModel },
      { timeout: 10_000 },
    );
    await shot(page, `${shots}-1-key`);
    await submitKey(page, lang);

    const turns = await playToTheEnd(page, lang, {
      playingShot: `${shots}-2-playing`,
      endingShot: `${shots}-3-ending`,
      afterTurn: async (turn) => {
        if (turn === 2) await expectTurnCost(page, lang, preset, shots);
      },
    });
    expect(turns).toBe(7);

    expectRoutedCleanly(route, fake, preset.baseUrl);
    expectModelListReadWithKey(fake);
    const bodies = chatBodies(fake);
    expect(broken(bodies, preset.rules)).toEqual([]);
    expectStreamingAndJsonMode(bodies);
    expect(await leaked(page)).toBeNull();
    expect(realErrors(player.errors)).toEqual([]);
    return { fake, bodies };
  } finally {
    await player.context.close();
    await fake.close();
  }
}

describe('each hosted preset plays a whole game through its own host, routed to its strict fake', () => {
  test.each(HOSTED.map((preset) => [preset.label, preset] as const))(
    '%s',
    async (_label, preset) => {
      await playHosted(preset, 'en', `providers-${preset.profile}`);
    },
    GAME_TIMEOUT,
  );

  test(
    'Groq in Korean: Korean screens, and every prompt the fake receives is in Korean',
    async () => {
      const { bodies } = await playHosted(GROQ, 'kr', 'providers-groq-kr');
      const prompts = bodies.map(userPrompt).filter((prompt) => prompt !== 'hi');
      expect(prompts.length).toBeGreaterThan(7);
      expect(prompts.filter((prompt) => !/[가-힣]/.test(prompt))).toEqual([]);
    },
    GAME_TIMEOUT,
  );
});

// ---- 3: a saved model Groq has retired ---------------------------------------------------------

const RETIRED = 'llama-3.3-70b-versatile';
const SETTINGS_KEY = 'persist:taleweaver/settings';

test(
  'a saved model Groq retired is replaced by openai/gpt-oss-120b, with a notice, on a phone',
  async () => {
    const fake = await startFakeModelServer({ profile: 'groq', validKeys: [API_KEY] });
    const player = await newPlayer('phone');
    const { page, context } = player;
    try {
      const route = await routeProviderHost(context, GROQ.baseUrl, fake);
      // The settings as redux-persist keeps them: each field JSON-encoded inside one object.
      await context.addInitScript(
        ({ key, model }) => {
          if (window.localStorage.getItem(key) !== null) return;
          const fields = {
            language: 'en',
            provider: 'groq',
            model,
            baseUrl: '',
            _persist: { version: 1, rehydrated: true },
          };
          const stored = Object.fromEntries(
            Object.entries(fields).map(([name, value]) => [name, JSON.stringify(value)]),
          );
          window.localStorage.setItem(key, JSON.stringify(stored));
        },
        { key: SETTINGS_KEY, model: RETIRED },
      );
      await signIn(page, 'en');
      // The saved model is back on the key screen.
      expect(await page.getByLabel('Provider').inputValue()).toBe('groq');
      expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe(RETIRED);
      await page.getByLabel('API key', { exact: true }).fill(API_KEY);
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'providers-phone-groq-1-key-retired-model');
      await submitKey(page, 'en');

      const notice = page
        .getByRole('status')
        .filter({ hasText: `Groq no longer offers ${RETIRED}, so your story uses ${GPT_OSS}.` });
      await notice.waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'providers-phone-groq-2-model-notice');
      // The stand-in is remembered, so the next visit does not meet the retired id again.
      await page.waitForFunction(
        ({ key, model }) => {
          const stored = window.localStorage.getItem(key);
          return stored !== null && JSON.parse(JSON.parse(stored).model) === model;
        },
        { key: SETTINGS_KEY, model: GPT_OSS },
      );

      const turns = await playToTheEnd(page, 'en', {
        endingShot: 'providers-phone-groq-3-ending',
      });
      expect(turns).toBe(7);
      expectRoutedCleanly(route, fake, GROQ.baseUrl);
      expectModelListReadWithKey(fake);
      const bodies = chatBodies(fake);
      expect(bodies.filter((body) => body.model === RETIRED)).toEqual([]);
      expect(broken(bodies, GROQ.rules)).toEqual([]);
      expect(await leaked(page)).toBeNull();
      expect(realErrors(player.errors)).toEqual([]);
    } finally {
      await context.close();
      await fake.close();
    }
  },
  GAME_TIMEOUT,
);

// ---- 4: the local preset and Custom, called directly ------------------------------------------

interface SeenResponse {
  method: string;
  path: string;
  status: number;
  body: ChatRequestBody | null;
  /** The response's text, for refusals (status 400 and up). */
  text: Promise<string> | null;
}

/** Every response the page got from this origin, in order. */
function recordResponses(context: BrowserContext, origin: string): SeenResponse[] {
  const seen: SeenResponse[] = [];
  context.on('response', (response) => {
    if (!response.url().startsWith(`${origin}/`)) return;
    const request = response.request();
    seen.push({
      method: request.method(),
      path: new URL(response.url()).pathname,
      status: response.status(),
      body: request.postDataJSON() as ChatRequestBody | null,
      text: response.status() >= 400 ? response.text().catch(() => '') : null,
    });
  });
  return seen;
}

const LOCAL_LABEL = 'Local model (Ollama, LM Studio, llama.cpp)';

test(
  'Local: a server that refuses this origin gets the CORS hint; one that allows it plays a whole game',
  async () => {
    const appOrigin = new URL(baseUrl()).origin;
    const [refusing, allowing] = await Promise.all([
      startFakeModelServer({ profile: 'local' }),
      startFakeModelServer({ profile: 'local', allowedOrigins: [appOrigin] }),
    ]);
    const player = await newPlayer();
    const { page, context } = player;
    try {
      const responses = recordResponses(context, new URL(allowing.url).origin);
      await signIn(page, 'en');
      await page.getByLabel('Provider').selectOption({ label: LOCAL_LABEL });
      // The model left to the default, chosen from the server's own list at the key check.
      const model = page.getByLabel('Model', { exact: true });
      expect(await model.inputValue()).toBe('');
      expect(await model.getAttribute('placeholder')).toBe('Default');

      // Without OLLAMA_ORIGINS: the browser refuses the answers, and the hint says why.
      await page.getByLabel('Base URL').fill(refusing.url);
      await page.getByRole('button', { name: 'Submit' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText(`Could not reach ${LOCAL_LABEL}.`).waitFor();
      await alert.getByText('OLLAMA_ORIGINS').waitFor();
      expect(await alert.textContent()).toContain(`this page's origin (${appOrigin})`);
      await shot(page, 'providers-local-1-cors-hint');
      // The model list (a simple GET) reached the server; the chat request's preflight did not
      // pass, so no chat request ever did.
      expect(refusing.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'GET /v1/models',
      ]);

      // The server now allows this origin.
      await page.getByLabel('Base URL').fill(allowing.url);
      await submitKey(page, 'en');
      const turns = await playToTheEnd(page, 'en', { endingShot: 'providers-local-2-ending' });
      expect(turns).toBe(7);

      const bodies = chatBodies(allowing);
      expect(bodies.length).toBeGreaterThan(7);
      expect(
        broken(bodies, {
          'model is llama3.2': (body) => body.model === 'llama3.2',
          'no json_object (the local server refuses it)': (body) =>
            body.response_format?.type !== 'json_object',
        }),
      ).toEqual([]);
      expect(bodies.some((body) => body.stream === true)).toBe(true);
      // A real cross-origin call: from the app's origin, straight to the server, never refused.
      expect(allowing.requests.every((request) => request.headers.origin === appOrigin)).toBe(true);
      expect(responses.length).toBe(allowing.requests.length);
      expect(responses.filter((response) => response.status >= 400)).toEqual([]);
      expect(await leaked(page)).toBeNull();
    } finally {
      await context.close();
      await Promise.all([refusing.close(), allowing.close()]);
    }
  },
  GAME_TIMEOUT,
);

const THINKER = 'fake-thinker';

test(
  'Custom: a lenient server with a reasoning model plays a whole game; it is seen thinking, never its thoughts',
  async () => {
    const fake = await startFakeModelServer({
      validKeys: [API_KEY],
      models: [{ id: THINKER, chat: true, kind: 'chat', reasoning: 'reasoning-field' }],
    });
    // The first segment streams slowly, so the thinking is on screen long enough to be seen.
    let slowed = false;
    fake.replyWith((body) => {
      const reply = gameReply(body);
      const prompt = userPrompt(body);
      if (slowed || !prompt.includes('storySegment') || prompt.includes('isFinal')) return reply;
      slowed = true;
      return { ...reply, chunkDelayMs: 150, chunkChars: 300 };
    });
    const player = await newPlayer();
    const { page } = player;
    try {
      await signIn(page, 'en');
      await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
      await page.getByLabel('Base URL').fill(fake.url);
      await page.getByLabel('Model', { exact: true }).fill(THINKER);
      await page.getByLabel('API key', { exact: true }).fill(API_KEY);
      await submitKey(page, 'en');
      const turns = await playToTheEnd(page, 'en', {
        afterChoice: async (turn) => {
          if (turn !== 1) return;
          await page.getByText('The storyteller is thinking…').first().waitFor({ timeout: 5_000 });
          await shot(page, 'providers-custom-1-thinking');
        },
        endingShot: 'providers-custom-2-ending',
      });
      expect(turns).toBe(7);
      expect(slowed).toBe(true);
      expectModelListReadWithKey(fake);
      const bodies = chatBodies(fake);
      expect(bodies.filter((body) => body.model !== THINKER)).toEqual([]);
      expect(bodies.some((body) => body.stream === true)).toBe(true);
      expect(await leaked(page)).toBeNull();
      expect(realErrors(player.errors)).toEqual([]);
    } finally {
      await player.context.close();
      await fake.close();
    }
  },
  GAME_TIMEOUT,
);

// ---- 5: a refused feature, negotiated away ----------------------------------------------------

test(
  'Custom at an OpenAI-strict server: max_tokens and temperature refused once each, then never sent; the player sees only the story',
  async () => {
    const fake = await startFakeModelServer({ profile: 'openai', validKeys: [API_KEY] });
    const player = await newPlayer();
    const { page, context } = player;
    try {
      const responses = recordResponses(context, new URL(fake.url).origin);
      await signIn(page, 'en');
      await page.getByLabel('Provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
      await page.getByLabel('Base URL').fill(fake.url);
      await page.getByLabel('Model', { exact: true }).fill('gpt-5-mini');
      await page.getByLabel('API key', { exact: true }).fill(API_KEY);
      await submitKey(page, 'en');
      const turns = await playToTheEnd(page, 'en', {
        endingShot: 'providers-fallback-ending',
      });
      expect(turns).toBe(7);

      const refusals = responses.filter((response) => response.status >= 400);
      expect(refusals.map((response) => response.status)).toEqual([400, 400]);
      const [first, second] = refusals;
      // The key check asked with max_tokens; its retry and the rest used max_completion_tokens.
      expect(first!.body).toHaveProperty('max_tokens');
      expect(await first!.text).toContain("'max_tokens' is not supported with this model");
      // The first game request asked with a temperature; its retry and the rest did not.
      expect(second!.body).toHaveProperty('temperature', 0.7);
      expect(second!.body).not.toHaveProperty('max_tokens');
      expect(await second!.text).toContain("'temperature' does not support 0.7");
      const afterRefusals = responses.slice(responses.indexOf(second!) + 1);
      expect(afterRefusals.filter((response) => response.method === 'POST').length).toBeGreaterThan(
        7,
      );
      expect(
        broken(
          afterRefusals.flatMap((response) => (response.body ? [response.body] : [])),
          {
            'no max_tokens': (body) => !('max_tokens' in body),
            'no temperature': (body) => !('temperature' in body),
            max_completion_tokens: (body) => typeof body.max_completion_tokens === 'number',
          },
        ),
      ).toEqual([]);
      // The app's alert regions stay empty: no error was ever left on screen.
      const alerts = await page.getByRole('alert').allTextContents();
      expect(alerts.filter((text) => text.trim() !== '')).toEqual([]);
      expect(realErrors(player.errors)).toEqual([]);
      expect(await leaked(page)).toBeNull();
    } finally {
      await context.close();
      await fake.close();
    }
  },
  GAME_TIMEOUT,
);

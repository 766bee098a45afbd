/**
 * Issue 7, journey 9: privacy and safety of what the model sends. The player's API key travels
 * only to the language-model server and is kept only under localStorage 'apiKey' (SPEC.md
 * sections 1 and 3); model text that holds HTML is shown as text and runs nothing (StoryLog:
 * "Model text is always React text, never HTML"). In Chromium, against the running server and
 * a fake OpenAI-compatible model server.
 */
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { gameReply, userPrompt, type CompletionReply } from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import { DESKTOP, collectPageErrors, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectWallet, fillKeyForm, setUpNewGame, submitKey } from './support/journey';
import { browser, model, withBrowserAndModel } from './support/session';

/**
 * The key's random part is what is searched for, so a copy of the key with its prefix cut off
 * or changed still counts.
 */
const SECRET = randomBytes(12).toString('hex');
const API_KEY = `sk-privacy-${SECRET}`;

withBrowserAndModel([API_KEY]);
afterEach(() => model.replyWith(gameReply));

const modelOrigin = () => new URL(model.url).origin;
const appOrigin = () => new URL(baseUrl()).origin;

/** Page errors, without the browser's own 'Failed to load resource' lines. */
function realErrors(errors: string[]): string[] {
  return errors.filter((error) => !/Failed to load resource/.test(error));
}

interface SeenRequest {
  kind: 'http' | 'websocket' | 'websocket frame';
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Everything the context sends: every HTTP request of its pages and workers, with all its
 * headers (as sent, cookies included) and its body, and every WebSocket and frame it sends.
 */
function recordTraffic(context: BrowserContext) {
  const pending: Promise<SeenRequest>[] = [];
  const seen = async (request: Request): Promise<SeenRequest> => {
    let headers: Record<string, string>;
    try {
      headers = await request.allHeaders();
    } catch {
      headers = request.headers();
    }
    return {
      kind: 'http',
      method: request.method(),
      url: request.url(),
      headers,
      body: request.postDataBuffer()?.toString('utf8') ?? '',
    };
  };
  context.on('request', (request) => pending.push(seen(request)));
  const watchSockets = (page: Page) =>
    page.on('websocket', (socket) => {
      const base = { method: 'GET', url: socket.url(), headers: {}, body: '' };
      pending.push(Promise.resolve({ kind: 'websocket', ...base }));
      socket.on('framesent', ({ payload }) =>
        pending.push(
          Promise.resolve({
            ...base,
            kind: 'websocket frame',
            body: typeof payload === 'string' ? payload : payload.toString('utf8'),
          }),
        ),
      );
    });
  context.pages().forEach(watchSockets);
  context.on('page', watchSockets);
  return { all: () => Promise.all(pending) };
}

const carriesSecret = (request: SeenRequest) =>
  request.url.includes(SECRET) ||
  request.body.includes(SECRET) ||
  Object.entries(request.headers).some(
    ([name, value]) => name.includes(SECRET) || value.includes(SECRET),
  );
const originOf = (url: string) => new URL(url.replace(/^ws/, 'http')).origin;
const label = (request: SeenRequest) => `${request.kind} ${request.method} ${request.url}`;

interface StoredRecords {
  database: string;
  store: string;
  records: number;
  /** Every key and record of the store, as JSON. */
  text: string;
}

/** Every record of every object store of every IndexedDB database of the page's origin. */
function indexedDbContents(page: Page): Promise<StoredRecords[]> {
  return page.evaluate(async () => {
    const done = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    // Records may hold more than JSON does: read binary and Blob values as text too.
    const plain = async (value: unknown): Promise<unknown> => {
      if (value instanceof Blob) return `blob:${await value.text()}`;
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
        return `bytes:${new TextDecoder().decode(value)}`;
      }
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Map) return plain(Array.from(value.entries()));
      if (value instanceof Set) return plain(Array.from(value));
      if (Array.isArray(value)) return Promise.all(value.map(plain));
      if (value !== null && typeof value === 'object') {
        const entries = await Promise.all(
          Object.entries(value).map(async ([key, item]) => [key, await plain(item)] as const),
        );
        return Object.fromEntries(entries);
      }
      return value;
    };
    const contents: StoredRecords[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await done(indexedDB.open(name));
      for (const store of Array.from(db.objectStoreNames)) {
        const objects = db.transaction(store, 'readonly').objectStore(store);
        const [keys, values] = await Promise.all([
          done(objects.getAllKeys()),
          done(objects.getAll()),
        ]);
        contents.push({
          database: name,
          store,
          records: values.length,
          text: JSON.stringify(await plain({ keys, values })),
        });
      }
      db.close();
    }
    return contents;
  });
}

/** localStorage and sessionStorage, entry by entry. */
function webStorage(page: Page) {
  return page.evaluate(() => {
    const entries = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, i) => {
        const key = storage.key(i) ?? '';
        return [key, storage.getItem(key) ?? ''] as const;
      });
    return { local: entries(window.localStorage), session: entries(window.sessionStorage) };
  });
}

/** Cache Storage: every cached request's URL and headers. */
function cachedRequests(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!('caches' in window)) return [];
    const seen: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        seen.push(`${name} ${request.url} ${JSON.stringify(Array.from(request.headers))}`);
      }
    }
    return seen;
  });
}

/**
 * The key is under localStorage 'apiKey' and nowhere else this origin keeps data: no other
 * localStorage key or value, no sessionStorage, no IndexedDB record, no cache, no cookie, and
 * not in the page's HTML. Returns the IndexedDB stores, so a caller can see they were not empty.
 */
async function expectKeyOnlyUnderApiKey(page: Page, when: string): Promise<StoredRecords[]> {
  const { local, session } = await webStorage(page);
  expect(local.find(([key]) => key === 'apiKey')?.[1]).toBe(API_KEY);
  const otherLocal = local.filter(([key]) => key !== 'apiKey');
  // Not vacuous: the wallet session and the settings are kept there too.
  expect(otherLocal.map(([key]) => key)).toEqual(
    expect.arrayContaining(['current_wallet_address', 'persist:taleweaver/settings']),
  );
  expect({
    when,
    localStorage: otherLocal
      .filter(([key, value]) => key.includes(SECRET) || value.includes(SECRET))
      .map(([key]) => key),
    sessionStorage: session
      .filter(([key, value]) => key.includes(SECRET) || value.includes(SECRET))
      .map(([key]) => key),
  }).toEqual({ when, localStorage: [], sessionStorage: [] });

  const stores = await indexedDbContents(page);
  expect({
    when,
    indexedDb: stores
      .filter((store) => store.text.includes(SECRET))
      .map((store) => `${store.database}/${store.store}`),
  }).toEqual({ when, indexedDb: [] });
  expect((await cachedRequests(page)).filter((line) => line.includes(SECRET))).toEqual([]);
  const cookies = await page.context().cookies();
  expect(cookies.filter((cookie) => JSON.stringify(cookie).includes(SECRET))).toEqual([]);
  expect({ when, htmlHasKey: (await page.content()).includes(SECRET) }).toEqual({
    when,
    htmlHasKey: false,
  });
  return stores;
}

/** Connects the injected wallet and chooses the fake provider; the key is typed, not sent. */
async function signInAndTypeKey(page: Page) {
  await connectWallet(page, baseUrl());
  await fillKeyForm(page, { url: baseUrl(), model, apiKey: API_KEY });
}

/** From load-or-create through genre, portrait and a random name to the opening's options. */
async function startGame(page: Page) {
  await setUpNewGame(page);
  await firstOption(page).waitFor({ timeout: 20_000 });
  await noOverlay(page);
}

const firstOption = (page: Page) => page.locator('.options__list button').first();
const ending = (page: Page) => page.getByRole('heading', { name: 'Adventure Complete' });
const noOverlay = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
    timeout: 20_000,
  });

/** Picks the first option each turn until the ending screen; returns the turns played. */
async function playToTheEnd(page: Page, afterTurn?: (turn: number) => Promise<void>) {
  let turns = 0;
  while (!(await ending(page).isVisible())) {
    await Promise.race([firstOption(page).waitFor(), ending(page).waitFor()]);
    if (!(await firstOption(page).isVisible())) break;
    turns += 1;
    await firstOption(page).click();
    await noOverlay(page);
    await Promise.race([firstOption(page).waitFor(), ending(page).waitFor()]);
    await afterTurn?.(turns);
    if (turns > 12) throw new Error('the story did not end by turn 12');
  }
  await ending(page).waitFor();
  return turns;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('the API key goes only to the model server', async () => {
  // The first time the game asks whether to conclude (turn 7), the story goes on: 8 turns.
  let conclusionChecks = 0;
  model.replyWith((body) => {
    if (!userPrompt(body).includes('isFinal') || ++conclusionChecks > 1) return gameReply(body);
    const asSegment = (body.messages ?? []).map((message) => ({
      ...message,
      content: message.content.replaceAll('isFinal', ''),
    }));
    const reply = gameReply({ ...body, messages: asSegment });
    return { ...reply, json: { ...(reply.json as object), isFinal: false } };
  });
  const context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, new TestWallet(1));
  const traffic = recordTraffic(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const modelRequestsBefore = model.requests.length;

  await signInAndTypeKey(page);
  await screenshot(page, 'privacy-1-key');
  expect(await page.getByLabel('API key').inputValue()).toBe(API_KEY);
  // Typed into the field, but not in the page's markup (the field is not a controlled input).
  expect({ keyScreenHtmlHasKey: (await page.content()).includes(SECRET) }).toEqual({
    keyScreenHtmlHasKey: false,
  });
  await submitKey(page, baseUrl());
  await startGame(page);
  await screenshot(page, 'privacy-1-opening');

  let midGameStores: StoredRecords[] = [];
  const turns = await playToTheEnd(page, async (turn) => {
    if (turn !== 3) return;
    // The auto-save of turn 3 is in IndexedDB: the story is stored, the key is not.
    await waitUntil('the story is saved in MyStoriesDB', async () =>
      (await indexedDbContents(page)).some(
        (store) => store.database === 'MyStoriesDB' && /"turnCount":3\b/.test(store.text),
      ),
    );
    midGameStores = await expectKeyOnlyUnderApiKey(page, 'at turn 3');
    await screenshot(page, 'privacy-1-turn-3');
  });
  expect(conclusionChecks).toBe(2);
  expect(turns).toBe(8);
  expect(
    midGameStores.find(({ database, store }) => database === 'MyStoriesDB' && store === 'stories')
      ?.records,
  ).toBeGreaterThan(0);
  await screenshot(page, 'privacy-1-ending');
  await expectKeyOnlyUnderApiKey(page, 'on the ending screen');

  await page.getByRole('button', { name: 'Save Adventure Results' }).click();
  await page.getByText('Adventure results saved!').waitFor();
  await screenshot(page, 'privacy-1-saved');
  await expectKeyOnlyUnderApiKey(page, 'after the result is saved');

  const requests = await traffic.all();
  // Every request that carries the key goes to the model server...
  expect(
    requests
      .filter((request) => carriesSecret(request) && originOf(request.url) !== modelOrigin())
      .map(label),
  ).toEqual([]);
  // ...and the model server did get it, as a Bearer token, on every call the browser made:
  // the model list, the key check, the character, the opening and each turn, the recap.
  const toModel = requests.filter(
    (request) => request.kind === 'http' && originOf(request.url) === modelOrigin(),
  );
  const modelCalls = toModel.filter((request) => request.method !== 'OPTIONS');
  const modelPosts = modelCalls.filter((request) => request.method === 'POST');
  expect(modelPosts.length).toBeGreaterThan(turns + 3);
  expect(
    modelCalls.filter((request) => request.headers.authorization !== `Bearer ${API_KEY}`),
  ).toEqual([]);
  expect(modelCalls.map((request) => request.method)).toContain('GET');
  expect(modelCalls.length).toBe(model.requests.length - modelRequestsBefore);
  // The app's own server had plenty of traffic (the page, the sign-in, the result), none of
  // it with the key.
  const toApp = requests.filter((request) => originOf(request.url) === appOrigin());
  expect(toApp.filter((request) => request.method === 'POST').length).toBeGreaterThan(0);
  expect(toApp.filter(carriesSecret).map(label)).toEqual([]);
  // Nothing went anywhere but these two servers (and the page's own data: URLs).
  expect(
    requests
      .map((request) => request.url)
      .filter(
        (url) => !url.startsWith('data:') && ![appOrigin(), modelOrigin()].includes(originOf(url)),
      ),
  ).toEqual([]);
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});

/** What a model might send to break out of text: an image with a handler, a script, markup. */
const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=2</script>';
const BOLD = '<b>bold</b>';
const HOSTILE = `${IMG} ${SCRIPT} ${BOLD}`;

/** Checks an element shows the hostile text as text and holds no element made from it. */
async function expectShownAsText(page: Page, selector: string, where: string) {
  const found = await page.evaluate(
    ({ selector: css }) => {
      const roots = Array.from(document.querySelectorAll(css));
      return {
        count: roots.length,
        texts: roots.map((root) => root.textContent ?? ''),
        // Any element the markup could have made; the ending's own portrait is not one.
        injected: roots.flatMap((root) =>
          Array.from(
            root.querySelectorAll('script, b, iframe, [onerror], img:not([src^="/characters/"])'),
          ).map((element) => element.outerHTML),
        ),
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        imgX: document.querySelectorAll('img[src="x"]').length,
      };
    },
    { selector },
  );
  expect({ where, injected: found.injected, pwned: found.pwned, imgX: found.imgX }).toEqual({
    where,
    injected: [],
    pwned: undefined,
    imgX: 0,
  });
  expect(found.count).toBeGreaterThan(0);
  expect(found.texts.some((text) => text.includes(HOSTILE))).toBe(true);
  await page.locator(selector).filter({ hasText: BOLD }).first().waitFor();
  expect(await page.locator(selector).filter({ hasText: BOLD }).first().isVisible()).toBe(true);
}

test('model text containing HTML is shown as text and runs no script', async () => {
  // Every scene, option, the character's bio and the recap arrive with markup in them.
  model.replyWith((body) => {
    const reply: CompletionReply = gameReply(body);
    const json = reply.json as Record<string, unknown>;
    for (const field of [
      'storyStart',
      'storySegment',
      'characterBio',
      'wrapUpParagraph',
      'bigMoment',
      'themeExploration',
    ]) {
      if (typeof json[field] === 'string') json[field] = `${HOSTILE} ${json[field] as string}`;
    }
    if (Array.isArray(json.options)) {
      json.options = (json.options as { text: string }[]).map((option) => ({
        ...option,
        text: `${HOSTILE} ${option.text}`,
      }));
    }
    return reply;
  });
  const context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, new TestWallet(1));
  const traffic = recordTraffic(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signInAndTypeKey(page);
  await submitKey(page, baseUrl());
  await startGame(page);

  // The opening, its options and the character's bio.
  await expectShownAsText(page, '.story-log .story-paragraph', 'the opening');
  await expectShownAsText(page, '.options__list .option__text', 'the options');
  await page.getByRole('button', { name: 'Show Details' }).click();
  await expectShownAsText(page, '.character-panel__bio', 'the character bio');
  await screenshot(page, 'privacy-2-opening');

  // One turn: the chosen option in the log and the next scene.
  await firstOption(page).click();
  await noOverlay(page);
  await firstOption(page).waitFor({ timeout: 20_000 });
  await expectShownAsText(page, '.story-log .story-choice__text', 'the choice in the log');
  const paragraphs = page.locator('.story-log .story-paragraph');
  expect(await paragraphs.count()).toBe(2);
  expect(await paragraphs.nth(1).textContent()).toContain(HOSTILE);
  await expectShownAsText(page, '.story-log', 'the story log after a turn');
  await screenshot(page, 'privacy-2-turn-1');

  // The ending: its recap paragraph and highlights.
  await playToTheEnd(page);
  await expectShownAsText(page, '.ending__wrapup', 'the recap');
  await expectShownAsText(page, '.ending-highlights dd', 'the highlights');
  await expectShownAsText(page, '.ending', 'the ending screen');
  await screenshot(page, 'privacy-2-ending');

  // No image ever asked for 'x', and no page error (a handler that ran and failed, say).
  const requests = await traffic.all();
  expect(requests.map((request) => request.url).filter((url) => /\/x(\?|$)/.test(url))).toEqual([]);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(realErrors(errors)).toEqual([]);
  await context.close();
});

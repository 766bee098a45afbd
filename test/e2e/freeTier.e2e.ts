/**
 * A whole game on a free key, in Chromium (DESIGN.md, "Free tiers first" and "Limits read from
 * the answer"). The Groq preset calls Groq's real host, routed to the strict fake playing
 * Groq's free tier (test/fixtures/fakeProviders/freeTier.ts): 8,000 tokens and 30 requests a
 * window, counted as prompt + max_tokens when a request arrives, with Groq's own 413 and 429
 * bodies, retry-after sent but not readable by the page. The window is shortened (6 s for 60 s,
 * the token figures kept), so a natural pace is one choice every 3 s.
 *
 * 1. At a natural pace a whole game shows no wait and sends nothing the free tier refuses.
 * 2. A player who chooses at once meets the per-minute limit: a countdown naming the provider
 *    and model, a Stop button, and the game goes on by itself.
 * 3. A daily cap stops politely, in Korean: when it resets, and another model goes on.
 * 4. A key without credit is refused at the key check, in English and in Korean.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
  type RecordedRequest,
} from '../fixtures/fakeModelServer';
import { baseUrl } from './support/backend';
import { DESKTOP, PHONE, horizontalOverflow, launchBrowser, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { setUpNewGame } from './support/journey';
import { routeProviderHost } from './support/providerRoute';
import { say, type Lang } from './support/words';

const KEY = 'gsk_free_tier_e2e_0123456789';
const GROQ_BASE = 'https://api.groq.com/openai/v1';
const WINDOW_MS = 6000;
/** DESIGN.md: a turn reserves at most 4,000 tokens on the Groq preset. */
const TURN_RESERVATION = 4000;

let browser: Browser;
const fakes: FakeModelServer[] = [];
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});
afterAll(async () => {
  await browser?.close();
});

/** A player whose provider host is answered by a fake of Groq's (or OpenAI's) free tier. */
async function newPlayer(
  options: FakeModelServerOptions,
  { phone = false, host = GROQ_BASE } = {},
): Promise<{ page: Page; fake: FakeModelServer }> {
  const fake = await startFakeModelServer({ validKeys: [KEY], ...options });
  fakes.push(fake);
  const context = await browser.newContext({
    viewport: phone ? PHONE : DESKTOP,
    ...(phone && { isMobile: true, hasTouch: true }),
    reducedMotion: 'reduce',
  });
  contexts.push(context);
  await injectTestWallet(context, new TestWallet(4));
  await routeProviderHost(context, host, fake);
  return { page: await context.newPage(), fake };
}

/** Signs in and sends the key for the preset's default model; stops on the key check. */
async function enterKey(page: Page, lang: Lang, provider = 'groq') {
  await page.goto(baseUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: say(lang, 'connect') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel(say(lang, 'provider')).selectOption(provider);
  await page.getByLabel(say(lang, 'apiKey'), { exact: true }).fill(KEY);
  await page.getByRole('button', { name: say(lang, 'submit') }).click();
}

/** From the key screen to the first options of a new story. */
async function startStory(page: Page, lang: Lang) {
  await enterKey(page, lang);
  await setUpNewGame(page, 5, lang);
}

const chats = (fake: FakeModelServer) =>
  fake.requests.filter((request) => request.method === 'POST');
const refused = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.status !== 200).map((request) => request.status);

/** Records in sessionStorage whether a wait notice ever appeared, from before the app loads. */
async function watchForWaits(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('.wait-notice, .loading-wait')) {
        sessionStorage.setItem('free-tier-wait-seen', 'yes');
      }
    }).observe(document, { subtree: true, childList: true });
  });
}

test('at a natural pace a whole game on the Groq free tier waits for nothing', async () => {
  const { page, fake } = await newPlayer({ profile: 'groq', freeTier: { windowMs: WINDOW_MS } });
  await watchForWaits(page);
  await startStory(page, 'en');
  const options = page.locator('.options__list button');
  const ending = page.getByRole('heading', { name: say('en', 'ending') });
  let turns = 0;
  for (;;) {
    await options.first().or(ending).first().waitFor({ timeout: 30_000 });
    if (await ending.isVisible()) break;
    // A reader's pace: one choice every half window (30 s on the real free tier).
    await page.waitForTimeout(WINDOW_MS / 2);
    await options.first().click();
    turns += 1;
    if (turns > 14) throw new Error('the story did not end by turn 14');
  }
  await screenshot(page, 'free-tier-ending-en');

  const requests = chats(fake);
  expect(refused(requests)).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('free-tier-wait-seen'))).toBeNull();
  // The key check, the profile, the opening with its summary; one per turn; the recap.
  expect(requests).toHaveLength(3 + turns + 1);
  const turnReservations = requests.slice(3, 3 + turns).map((r) => r.reservation!.total);
  expect(Math.max(...turnReservations)).toBeLessThanOrEqual(TURN_RESERVATION);
  console.log(`free tier, ${turns} turns: reservations per turn ${turnReservations.join(', ')}`);
});

test('choosing at once meets the per-minute limit: a countdown, a Stop button, then on', async () => {
  const { page, fake } = await newPlayer({ profile: 'groq', freeTier: { windowMs: 15_000 } });
  await startStory(page, 'en');
  const options = page.locator('.options__list button');
  const notice = page.locator('.wait-notice');
  // Choose the moment the options appear, until the minute's tokens run out.
  for (let turn = 0; turn < 4 && !(await notice.isVisible()); turn += 1) {
    await options.first().or(notice).first().waitFor({ timeout: 30_000 });
    if (await notice.isVisible()) break;
    await options.first().click();
  }
  await notice.waitFor({ timeout: 30_000 });
  // What the wait says comes with its own code, the first time one is shown.
  await notice.getByText(/per-minute limit/).waitFor();
  expect(await notice.textContent()).toMatch(
    /Groq's per-minute limit for openai\/gpt-oss-120b is reached\. Trying again in \d+ s/,
  );
  await notice.getByRole('button', { name: 'Stop' }).waitFor();
  await screenshot(page, 'free-tier-countdown-en');
  // It goes on by itself once the stated time has passed.
  await options.first().waitFor({ timeout: 30_000 });
  expect(await page.locator('.turn-error').count()).toBe(0);
  const statuses = chats(fake).map((request) => request.status);
  expect(statuses.filter((status) => status === 429)).toHaveLength(1);
  expect(statuses.at(-1)).toBe(200);
});

test('a daily cap stops politely, in Korean, and another model goes on with the story', async () => {
  // The key check, the profile, the opening and one turn: the fifth request is over the day.
  const { page, fake } = await newPlayer(
    { profile: 'groq', freeTier: { requestsPerDay: 4 } },
    { phone: true },
  );
  await startStory(page, 'kr');
  const options = page.locator('.options__list button');
  await options.first().click();
  await options.first().waitFor();
  await options.first().click();
  const error = page.locator('.turn-error');
  await error.waitFor();
  // The offer's code comes with the first problem it is made for (LimitOffer.tsx).
  await error.locator('.limit-offer').waitFor();
  const said = await error.textContent();
  expect(said).toContain('Groq의 openai/gpt-oss-120b 모델 일일 한도(하루 요청 수)에 도달했습니다.');
  expect(said).toContain('초기화됩니다');
  await screenshot(page, 'free-tier-daily-cap-kr-phone');
  expect(await horizontalOverflow(page)).toBe(0);
  // No retry loop: the cap was asked once.
  expect(chats(fake).filter((request) => request.status === 429)).toHaveLength(1);

  await error.getByLabel('다른 모델').selectOption('openai/gpt-oss-20b');
  await error.getByRole('button', { name: '이 모델로 계속하기' }).click();
  await options.first().waitFor({ timeout: 30_000 });
  const last = chats(fake).at(-1)!;
  expect(last.status).toBe(200);
  expect(last.body.model).toBe('openai/gpt-oss-20b');
  // The story kept every paragraph: the opening, the first turn's, and the one just written.
  expect(await page.locator('.story-paragraph').count()).toBe(3);
});

test.each(['en', 'kr'] as const)(
  'a key without credit is refused at the key check (%s)',
  async (lang) => {
    // OpenAI as it answers after the GPT-5 snapshots' retirement (issue 30): the key check runs
    // against the default chosen from its live list.
    const { page, fake } = await newPlayer(
      { profile: 'openai-2026-12-12', noCreditKeys: [KEY] },
      { host: 'https://api.openai.com/v1' },
    );
    await enterKey(page, lang, 'openai');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      lang === 'en'
        ? 'Your OpenAI key has no credit left for gpt-5.6-terra, so it cannot write a story.'
        : 'OpenAI 키에 gpt-5.6-terra 모델을 쓸 크레딧이 남아 있지 않아 이야기를 쓸 수 없습니다.',
    );
    await screenshot(page, `free-tier-no-credit-${lang}`);
    expect(page.url()).toBe(`${baseUrl()}/`);
    expect(chats(fake).map((request) => request.status)).toEqual([429]);
  },
);

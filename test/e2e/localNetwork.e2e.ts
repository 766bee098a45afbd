/**
 * Issue 38, part 2, in Chromium: a local model from a public site. Since Chrome 142 a page on
 * a public address must have the player's permission (Local Network Access) before it calls
 * their computer; the browser checks it before CORS. Here the app is served by the e2e server
 * on 127.0.0.1 and opened as http://taleweaver.example:<port> (`--host-resolver-rules`), made
 * public by `--ip-address-space-overrides`, and a secure context as an https site would be
 * (`--unsafely-treat-insecure-origin-as-secure`: Chromium grants the permission only there).
 * The Local provider calls the fake model server on 127.0.0.1, which allows the app's origin
 * (CORS is not what stops it).
 *
 * With the permission denied, the player is told so (not CORS) and nothing is lost; once it is
 * granted (`local-network-access`, as the player would in the site's settings), a whole game
 * plays. The wallet's session is signed in for the e2e server's own address (the sign-in
 * message names the site) and left in the browser's storage, as a returning player has it.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fakeModelServer';
import { baseUrl, e2eBackend, signedInContext } from './support/backend';
import {
  DESKTOP,
  PHONE,
  STEP_TIMEOUT_MS,
  horizontalOverflow,
  launchBrowser,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { playToTheEnd, shot } from './support/providerJourney';
import { say, type Lang } from './support/words';

/** The public name the app is opened at; Chromium resolves it to the e2e server's 127.0.0.1. */
const PUBLIC_HOST = 'taleweaver.example';
const GAME_TIMEOUT = 150_000;
const port = () => new URL(baseUrl()).port;
const appUrl = () => `http://${PUBLIC_HOST}:${port()}`;

let browser: Browser;
let fake: FakeModelServer;
beforeAll(async () => {
  [browser, fake] = await Promise.all([
    launchBrowser([
      `--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1`,
      `--ip-address-space-overrides=127.0.0.1:${port()}=public`,
      `--unsafely-treat-insecure-origin-as-secure=${appUrl()}`,
    ]),
    // The local profile (Ollama's answers), allowing the app's origin as OLLAMA_ORIGINS would.
    startFakeModelServer({ profile: 'local', allowedOrigins: [appUrl()] }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([browser?.close(), fake?.close()]);
});

/** The browser context's id, for CDP's Browser.setPermission. */
async function browserContextId(context: BrowserContext, page: Page): Promise<string> {
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = (await cdp.send('Target.getTargetInfo')) as {
    targetInfo: { browserContextId: string };
  };
  await cdp.detach();
  return targetInfo.browserContextId;
}

interface Player {
  context: BrowserContext;
  page: Page;
  /** Console errors other than Chromium's own lines for the refused request. */
  errors: string[];
  /** Chromium's lines for requests it refused. */
  refusals: string[];
}

/**
 * A returning player on the public site, in `lang`, with the Local Network Access permission
 * denied (Block, as the player chose it when Chrome asked): ends on the key screen.
 */
async function deniedPlayer(device: 'desktop' | 'phone', lang: Lang): Promise<Player> {
  const context = await browser.newContext(
    device === 'phone'
      ? { viewport: PHONE, isMobile: true, hasTouch: true, reducedMotion: 'reduce' }
      : { viewport: DESKTOP, reducedMotion: 'reduce' },
  );
  const wallet = new TestWallet(1);
  // Connected on an earlier visit: the wallet answers eth_accounts with the account.
  await wallet.request({ method: 'eth_requestAccounts' });
  await injectTestWallet(context, wallet);
  await signedInContext(context, e2eBackend(baseUrl()), wallet.accounts[0]!);
  const page = await context.newPage();
  const session = await browser.newBrowserCDPSession();
  await session.send('Browser.setPermission', {
    permission: { name: 'local-network-access' },
    setting: 'denied',
    origin: appUrl(),
    browserContextId: await browserContextId(context, page),
  });
  await session.detach();
  const errors: string[] = [];
  const refusals: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const refused = /address space|Failed to load resource: net::ERR_FAILED/.test(text);
    (refused ? refusals : errors).push(text);
  });
  await page.goto(appUrl());
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.locator('.wallet-address__tick').waitFor({ timeout: STEP_TIMEOUT_MS });
  return { context, page, errors, refusals };
}

/** The Local preset with the fake model server's address and a model of the player's own. */
async function chooseLocalServer(page: Page, lang: Lang): Promise<void> {
  await page.getByLabel(say(lang, 'provider')).selectOption('local');
  await page.getByLabel(say(lang, 'baseUrl')).fill(fake.url);
  await page.getByLabel(say(lang, 'model'), { exact: true }).fill('llama3.2');
}

const ENGLISH = {
  notice:
    'is on your own computer: when you submit, your browser may ask to let this site access ' +
    'other apps and services on this device. Choose Allow, or the game cannot reach it.',
  denied:
    'Your browser blocks this site from reaching apps on your computer, so nothing reached ' +
    'Local model (Ollama, LM Studio, llama.cpp).',
  howToAllow: 'set “Apps on device” (in earlier versions “Local network access”) to Allow',
};

test(
  'denied: the permission is named, not CORS, and nothing is lost; once granted, a whole game plays',
  async () => {
    const { context, page, errors, refusals } = await deniedPlayer('desktop', 'en');
    try {
      const appOrigin = appUrl();
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
      await chooseLocalServer(page, 'en');
      // Before the check: the browser will ask, and Allow is the answer.
      const notice = page.getByRole('note');
      await notice.waitFor();
      expect(await notice.textContent()).toBe(`${new URL(fake.url).origin} ${ENGLISH.notice}`);
      await shot(page, 'local-network-1-notice-en-desktop');

      const requestsBefore = fake.requests.length;
      await page.getByRole('button', { name: 'Submit' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText(ENGLISH.denied).waitFor({ timeout: STEP_TIMEOUT_MS });
      await alert.getByText(ENGLISH.howToAllow, { exact: false }).waitFor();
      const said = (await alert.textContent()) ?? '';
      expect(said).not.toMatch(/CORS|OLLAMA_ORIGINS|Could not reach/);
      await shot(page, 'local-network-2-denied-en-desktop');
      // Chromium refused the request itself, before CORS: the server never heard of it.
      expect(fake.requests.length).toBe(requestsBefore);
      expect(refusals.some((line) => /the `loopback` address space/.test(line))).toBe(true);
      // Nothing is lost: the same server and model, ready to submit again.
      expect(await page.getByLabel('Provider').inputValue()).toBe('local');
      expect(await page.getByLabel('Base URL').inputValue()).toBe(fake.url);
      expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('llama3.2');

      // The player allows it in the site's settings, and submits again.
      await context.grantPermissions(['local-network-access'], { origin: appOrigin });
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL(`${appOrigin}/game`, { timeout: STEP_TIMEOUT_MS });
      await page.getByRole('button', { name: 'Start New Game' }).waitFor();
      const turns = await playToTheEnd(page, 'en', {
        endingShot: 'local-network-3-granted-ending',
      });
      expect(turns).toBe(7);
      // Every request came from the public page straight to the player's server.
      const played = fake.requests.slice(requestsBefore);
      expect(played.some((request) => request.path === '/v1/chat/completions')).toBe(true);
      expect(played.every((request) => request.headers.origin === appOrigin)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  },
  GAME_TIMEOUT,
);

test.each<['desktop' | 'phone', Lang]>([
  ['phone', 'en'],
  ['desktop', 'kr'],
  ['phone', 'kr'],
])('%s, %s: the notice and the refusal in the interface language', async (device, lang) => {
  const { context, page, errors } = await deniedPlayer(device, lang);
  try {
    await chooseLocalServer(page, lang);
    const notice = page.getByRole('note');
    await notice.waitFor();
    const noticeText = (await notice.textContent()) ?? '';
    expect(noticeText).toContain(new URL(fake.url).origin);
    expect(noticeText).toContain(lang === 'en' ? 'Choose Allow' : '허용을 선택해야');
    await shot(page, `local-network-1-notice-${lang}-${device}`);

    await page.getByRole('button', { name: say(lang, 'submit') }).click();
    const alert = page.getByRole('alert');
    await alert
      .getByText(lang === 'en' ? 'Your browser blocks this site' : '브라우저가 이 사이트의', {
        exact: false,
      })
      .waitFor({ timeout: STEP_TIMEOUT_MS });
    await alert
      .getByText(lang === 'en' ? 'Site settings' : '사이트 설정', { exact: false })
      .waitFor();
    const said = (await alert.textContent()) ?? '';
    expect(said).not.toMatch(/CORS|OLLAMA_ORIGINS/);
    if (lang === 'kr') expect(said).not.toMatch(/browser|Allow|Site settings/);
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, `local-network-2-denied-${lang}-${device}`);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

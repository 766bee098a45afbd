/**
 * The sign-in limit as a player meets it (issue 29): the backend counts nonce requests and
 * logins per address per minute in its database; past the limit, Connect Wallet says to wait
 * a minute, in the interface's language, and the wallet is never asked to sign a message the
 * server would refuse. A server of this file's own, whose limit (0) every attempt is past.
 */
import type { Browser } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { startServer, type RunningServer } from './support/server';
import { APP_START_TIMEOUT_MS } from '../support/timeouts';

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ SIGN_IN_RATE_LIMIT: '0' }),
  ]);
}, APP_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const CASES = [
  {
    lang: 'en',
    connect: 'Connect Wallet',
    message: 'Too many sign-in attempts from your network. Please wait a minute and try again.',
  },
  {
    lang: 'kr',
    connect: '지갑 연결',
    message: '현재 네트워크에서 로그인 시도가 너무 많습니다. 1분 후에 다시 시도해 주세요.',
  },
] as const;

describe.each(CASES)('past the sign-in limit ($lang)', ({ lang, connect, message }) => {
  test.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('Connect Wallet says to wait, on a %s', async (device, viewport) => {
    const wallet = new TestWallet();
    const context = await browser.newContext({ viewport });
    await injectTestWallet(context, wallet);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(server.url);
    if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
    await page.getByRole('button', { name: connect }).click();
    await page.getByRole('alert').getByText(message).waitFor();
    await screenshot(page, `wallet-rate-limited-${lang}-${device}`);
    expect(wallet.calls).not.toContain('personal_sign');
    // Still disconnected, and the player can try again later from the same button.
    await page.getByRole('button', { name: connect }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    // The refused requests are the only failures the page meets (the browser logs each 429).
    expect(errors.filter((error) => !/status of 429/.test(error))).toEqual([]);
    await context.close();
  });
});

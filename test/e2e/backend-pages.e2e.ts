/**
 * The Leaderboard and Profile pages in Chromium against the running server and its database,
 * with results written by really signed-in wallets.
 */
import { Wallet } from 'ethers';
import type { Browser } from 'playwright-core';
import { plausibleResult } from '../server/support/results';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser';
import { e2eBackend, signedInContext } from './support/backend';
import { startServer, type RunningServer } from './support/server';
import { APP_START_TIMEOUT_MS } from '../support/timeouts';

let browser: Browser;
/** A server of this file's own: the leaderboard starts empty whatever other files saved. */
let server: RunningServer;
const baseUrl = () => server.url;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ SIGN_IN_RATE_LIMIT: '1000' }),
  ]);
}, APP_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const alice = Wallet.createRandom();
const bob = Wallet.createRandom();

test('a visitor sees the empty leaderboard', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(`${baseUrl()}/leaderboard`);
  await page.getByText('No scores yet. Be the first to play!').waitFor();
  await screenshot(page, 'leaderboard-empty-en-desktop');
  await page.close();
});

test('saved results appear ranked, Korean endings in English, in both languages', async () => {
  const target = e2eBackend(baseUrl());
  for (const [wallet, result] of [
    [alice, plausibleResult({ character: 'Aria Vale', decisions: 90 })],
    [bob, plausibleResult({ character: '김서연', ending: '영웅적 승리', decisions: 60 })],
    [bob, plausibleResult({ character: 'Tomas Reed', ending: 'Tragic Downfall', decisions: 20 })],
  ] as const) {
    const context = await browser.newContext();
    const { address, token } = await signedInContext(context, target, wallet);
    await context.close();
    const { error } = await target.backend
      .forWallet({ address, token })
      .from('game_results')
      .insert({
        wallet_address: address,
        ...result,
        genre: 'Post-Apocalyptic Survival',
      });
    expect(error).toBeNull();
  }

  const page = await browser.newPage({ viewport: DESKTOP });
  const errors = collectPageErrors(page);
  await page.goto(`${baseUrl()}/leaderboard`);
  const rows = page.locator('tbody tr');
  await rows.first().waitFor();
  expect(await rows.count()).toBe(3);
  await expect(rows.nth(0).getAttribute('class')).resolves.toContain('top-1');
  expect(await rows.nth(0).innerText()).toContain('Aria Vale');
  expect(await rows.nth(1).innerText()).toContain('김서연');
  expect(await rows.nth(1).innerText()).toContain('Heroic Victory');
  expect(await rows.nth(0).innerText()).toContain('Post-A...val');
  await screenshot(page, 'leaderboard-filled-en-desktop');

  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('columnheader', { name: '순위' }).waitFor();
  await screenshot(page, 'leaderboard-filled-kr-desktop');
  expect(errors).toEqual([]);
  await page.close();

  for (const lang of ['en', 'kr']) {
    const phone = await browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await phone.goto(`${baseUrl()}/leaderboard`);
    await phone.getByLabel('Language').selectOption(lang);
    await phone.getByText('Aria Vale').waitFor();
    expect(await horizontalOverflow(phone)).toBe(0);
    await screenshot(phone, `leaderboard-filled-${lang}-phone`);
    await phone.close();
  }
});

test('a visitor without a wallet is asked to connect on the profile page', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(`${baseUrl()}/profile`);
  await page.getByRole('heading', { name: 'Wallet Not Connected' }).waitFor();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await page.waitForURL(`${baseUrl()}/`);
  await page.close();
});

test('a signed-in player sees their statistics, names themselves and becomes a supporter', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const { address } = await signedInContext(context, e2eBackend(baseUrl()), alice);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${baseUrl()}/profile`);

  await page.getByRole('heading', { name: 'Game Statistics' }).waitFor();
  await page
    .getByText(`${address.slice(0, 6)}...${address.slice(-4)}`)
    .first()
    .waitFor();
  const stats = page.locator('section', {
    has: page.getByRole('heading', { name: 'Game Statistics' }),
  });
  await stats
    .getByText(String(plausibleResult({ decisions: 90 }).score))
    .first()
    .waitFor();

  const save = page.getByRole('button', { name: 'Save', exact: true });
  expect(await save.isDisabled()).toBe(true);
  await page.getByLabel('Username').fill('Aria the Bold');
  await save.click();
  await page.getByText('Saved!').waitFor();

  await page.getByRole('button', { name: 'Follow' }).click();
  // Follow opens the social account's follow page in a new tab; the closed network refuses it.
  await page.getByText('Did you follow?').waitFor();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Royal Supporter').first().waitFor();
  await screenshot(page, 'profile-en-desktop');

  await page.reload();
  await page.getByText('Royal Supporter').first().waitFor();
  expect(await page.getByLabel('Username').inputValue()).toBe('Aria the Bold');

  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('heading', { name: '게임 통계' }).waitFor();
  await screenshot(page, 'profile-kr-desktop');
  expect(errors.filter((error) => !error.includes('twitter.com'))).toEqual([]);
  await context.close();

  const phoneContext = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  });
  await signedInContext(phoneContext, e2eBackend(baseUrl()), alice);
  const phone = await phoneContext.newPage();
  await phone.goto(`${baseUrl()}/profile`);
  await phone.getByRole('heading', { name: 'Game Statistics' }).waitFor();
  expect(await horizontalOverflow(phone)).toBe(0);
  await screenshot(phone, 'profile-en-phone');
  await phoneContext.close();
});

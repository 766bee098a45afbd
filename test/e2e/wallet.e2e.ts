/**
 * Signing in with a wallet in Chromium: a test wallet injected into the page signs with real
 * keys; the running server verifies every signature.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import { baseUrl } from './support/backend';
import { DESKTOP, PHONE, horizontalOverflow, launchBrowser, screenshot } from './support/browser';
import { injectTestWallet, switchAccount } from './support/injectWallet';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const short = (address: string) =>
  `${address.toLowerCase().slice(0, 6)}...${address.toLowerCase().slice(-4)}`;
const walletButton = (page: Page, address: string) =>
  page.getByRole('button', { name: `Wallet ${short(address)}, verified` });
const signatures = (wallet: TestWallet) =>
  wallet.calls.filter((call) => call === 'personal_sign').length;

async function openWithWallet(wallet: TestWallet, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  await injectTestWallet(context, wallet);
  const page = await context.newPage();
  await page.goto(baseUrl());
  return { context, page };
}

test('without a wallet the player is told to install one', async () => {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(baseUrl());
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await page
    .getByRole('alert')
    .getByText('Please install MetaMask or other Web3 wallet.')
    .waitFor();
  await screenshot(page, 'wallet-none-en-desktop');
  await page.close();
});

test('connect, sign, stay verified across a reload, switch accounts, disconnect', async () => {
  const wallet = new TestWallet(2);
  const [first, second] = wallet.accounts.map((account) => account.address);
  const { context, page } = await openWithWallet(wallet);

  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await walletButton(page, first!).waitFor();
  expect(signatures(wallet)).toBe(1);
  const stored = await page.evaluate(() => ({ ...window.localStorage }));
  const address = first!.toLowerCase();
  expect(stored).toEqual(
    expect.objectContaining({
      current_wallet_address: address,
      [`signature_verified_${address}`]: 'true',
      [`auth_token_${address}`]: expect.stringMatching(/^ey/),
    }),
  );
  await screenshot(page, 'wallet-verified-en-desktop');
  await walletButton(page, first!).click();
  await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
  await screenshot(page, 'wallet-menu-en-desktop');
  await page.keyboard.press('Escape');

  await page.reload();
  await walletButton(page, first!).waitFor();
  expect(signatures(wallet)).toBe(1);

  // A new account is asked to sign; switching back to the first needs no signature.
  await switchAccount(page, wallet, 1);
  await walletButton(page, second!).waitFor();
  expect(signatures(wallet)).toBe(2);
  await switchAccount(page, wallet, 0);
  await walletButton(page, first!).waitFor();
  expect(signatures(wallet)).toBe(2);

  await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: `지갑 ${short(first!)}, 인증됨` }).waitFor();
  await screenshot(page, 'wallet-verified-kr-desktop');
  await page.getByLabel('언어').selectOption('en');

  await walletButton(page, first!).click();
  await page.getByRole('menuitem', { name: 'Disconnect' }).click();
  await page.getByRole('button', { name: 'Connect Wallet' }).waitFor();
  expect(page.url()).toBe(`${baseUrl()}/`);
  const afterDisconnect = await page.evaluate(() => Object.keys(window.localStorage));
  expect(afterDisconnect.filter((key) => /wallet|signature|auth_token/.test(key))).toEqual([]);
  await context.close();
});

test('a wallet that signs with the wrong key is refused', async () => {
  const wallet = new TestWallet(1);
  wallet.mode = 'wrongKey';
  const { context, page } = await openWithWallet(wallet);
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await page.getByRole('alert').getByText('Signature verification failed').waitFor();
  expect(
    await page.evaluate(() =>
      Object.keys(window.localStorage).filter((key) => key.startsWith('auth_token_')),
    ),
  ).toEqual([]);
  await context.close();
});

test('declining in the wallet is explained, and the button comes back', async () => {
  const wallet = new TestWallet(1);
  wallet.mode = 'reject';
  const { context, page } = await openWithWallet(wallet);
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await page
    .getByRole('alert')
    .getByText(/You declined the request/)
    .waitFor();
  await page.getByRole('button', { name: 'Connect Wallet' }).waitFor();
  await context.close();
});

test('on a phone the verified header fits without sideways scrolling', async () => {
  const wallet = new TestWallet(1);
  const contexts: BrowserContext[] = [];
  for (const lang of ['en', 'kr']) {
    const { context, page } = await openWithWallet(wallet, PHONE);
    contexts.push(context);
    await page.getByLabel('Language').selectOption(lang);
    await page
      .getByRole('button', { name: lang === 'en' ? 'Connect Wallet' : '지갑 연결' })
      .click();
    await page.locator('.wallet-address__tick').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `wallet-verified-${lang}-phone`);
    // The menu opens on the screen, whole.
    await page.locator('button:has(.wallet-address__tick)').click();
    const profile = page.getByRole('menuitem', { name: lang === 'en' ? 'Profile' : '프로필' });
    await profile.waitFor();
    const box = await page.locator('.wallet-menu__list').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, `wallet-menu-${lang}-phone`);
  }
  for (const context of contexts) await context.close();
});

test('a slow wallet shows Signing... until it answers, and one click is one signature', async () => {
  const wallet = new TestWallet(1);
  wallet.latencyMs = 700;
  const { context, page } = await openWithWallet(wallet);
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  const busy = page.getByRole('button', { name: 'Signing...' });
  await busy.waitFor();
  expect(await busy.isDisabled()).toBe(true);
  await screenshot(page, 'wallet-slow-signing');
  await walletButton(page, wallet.address).waitFor({ timeout: 15_000 });
  expect(signatures(wallet)).toBe(1);
  await context.close();
});

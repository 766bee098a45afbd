/**
 * Smart-account wallets in Chromium (issue 38): the header's wallet is a contract account on a
 * real local EVM (Hardhat's node), whose signatures only its chain can check. An account never
 * deployed signs in with ERC-6492 and plays a whole game: the leaderboard and the cloud saves
 * key on the account's address, and the account is still undeployed at the end. A deployed
 * account signs in with ERC-1271 on a phone in Korean; a forged signature and an account on a
 * chain the server has no endpoint for are refused, each with its own words.
 */
import type { Page } from 'playwright-core';
import { type LocalChain, startLocalChain } from '../fixtures/chain/localChain';
import { SmartAccountWallet } from '../fixtures/chain/smartAccountWallet';
import type { Eip1193Provider } from '../../src/features/wallet';
import { e2eBackend } from './support/backend';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectAndEnterKey, playNewGameToTheEnd, type JourneyTarget } from './support/journey';
import { startServer, type RunningServer } from './support/server';
import { browser, model, withBrowserAndModel } from './support/session';

const API_KEY = 'sk-smart-account';
/** Base's chain id: a smart account there, on a server with no endpoint for it. */
const UNCONFIGURED_CHAIN = 8453;

withBrowserAndModel([API_KEY]);

let chain: LocalChain;
let server: RunningServer;
beforeAll(async () => {
  chain = await startLocalChain();
  server = await startServer({
    SIGN_IN_RATE_LIMIT: '1000',
    CHAIN_RPC_URLS: `${chain.chainId}=${chain.url}`,
  });
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await chain?.close();
}, 60_000);

/** The header's short form of an address: its first 6 and last 4 characters (SPEC.md §2). */
const shortForm = (address: string) =>
  new RegExp(`^${address.toLowerCase().slice(0, 6)}\\W+${address.toLowerCase().slice(-4)}$`, 'i');

/** The signed-in wallet as this page stored it: the address and the server's token. */
const storedSession = (page: Page) =>
  page.evaluate(() => {
    const address = window.localStorage.getItem('current_wallet_address') ?? '';
    return { address, token: window.localStorage.getItem(`auth_token_${address}`) ?? '' };
  });

test('an account never deployed signs in (ERC-6492), plays, and its results and cloud saves are its own', async () => {
  const wallet = await SmartAccountWallet.create(chain);
  const account = wallet.address.toLowerCase();
  const context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, wallet, 'Smart Wallet');
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const target: JourneyTarget = { url: server.url, model, apiKey: API_KEY };

  await connectAndEnterKey(page, target);
  await page.locator('.wallet-address').getByText(shortForm(account)).waitFor();
  await screenshot(page, 'smart-account-en-signed-in-desktop');
  expect(await storedSession(page)).toMatchObject({ address: account });

  await page.getByLabel('Keep my stories with my wallet').check();
  await playNewGameToTheEnd(page);
  await page.getByRole('button', { name: 'Save Adventure Results' }).click();
  await page.getByText('Adventure results saved!').waitFor();

  // The leaderboard's row and the cloud's story are the account's, read as the account.
  const { token } = await storedSession(page);
  const player = e2eBackend(server.url).backend.forWallet({ address: account, token });
  const results = await player.from('game_results').select('wallet_address');
  expect(results.data).toEqual([{ wallet_address: account }]);
  const stories = await player.from('stories').select('wallet_address');
  expect(stories.error).toBeNull();
  expect(stories.data?.length).toBeGreaterThan(0);
  expect(new Set(stories.data?.map((story) => story.wallet_address))).toEqual(new Set([account]));
  await page.goto(`${server.url}/leaderboard`);
  await page.locator('tbody tr').first().waitFor();
  await screenshot(page, 'smart-account-en-leaderboard-desktop');

  // Signing in simulated the deployment; nothing was ever sent to the chain.
  expect(await wallet.account.isDeployed()).toBe(false);
  expect(wallet.calls).toContain('personal_sign');
  expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  await context.close();
});

describe('on a phone, in Korean', () => {
  async function connectInKorean(wallet: Eip1193Provider) {
    const context = await browser.newContext({ viewport: PHONE });
    await injectTestWallet(context, wallet, 'Smart Wallet');
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByLabel('Language').selectOption('kr');
    await page.getByRole('button', { name: '지갑 연결' }).click();
    return { context, page };
  }

  test('a deployed account signs in (ERC-1271) and the header shows its address', async () => {
    const wallet = await SmartAccountWallet.create(chain);
    await wallet.account.deploy();
    const { context, page } = await connectInKorean(wallet);
    await page.locator('.wallet-address').getByText(shortForm(wallet.address)).waitFor();
    await page.locator('.wallet-address__tick').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'smart-account-kr-signed-in-phone');
    await context.close();
  });

  test("another key's signature for the account is a failed verification", async () => {
    const wallet = await SmartAccountWallet.create(chain);
    wallet.mode = 'wrongOwner';
    const { context, page } = await connectInKorean(wallet);
    await page.getByRole('alert').getByText('서명 검증에 실패했습니다').waitFor();
    await page.getByRole('button', { name: '지갑 연결' }).waitFor();
    await context.close();
  });

  test('an account on a chain the server cannot check says so, naming the chain', async () => {
    const wallet = await SmartAccountWallet.create(chain);
    await wallet.account.deploy();
    const { context, page } = await connectInKorean(onAnotherChain(wallet, UNCONFIGURED_CHAIN));
    const alert = page.getByRole('alert');
    await alert.getByText(/체인 8453의 스마트 계정/).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'smart-account-kr-unconfigured-chain-phone');
    await context.close();
  });
});

/** The same wallet, as if switched to another chain: its chain id is all that differs. */
function onAnotherChain(wallet: SmartAccountWallet, chainId: number): Eip1193Provider {
  return {
    request: (args) =>
      args.method === 'eth_chainId'
        ? Promise.resolve(`0x${chainId.toString(16)}`)
        : wallet.request(args),
    on: (event, listener) => wallet.on(event, listener),
    removeListener: (event, listener) => wallet.removeListener(event, listener),
  };
}

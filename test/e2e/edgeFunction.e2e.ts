/**
 * The sign-in journey through the Edge Function under Deno, as `npm run functions:serve` plus
 * `FUNCTIONS_URL=... npm start` run it: the browser signs with a real key, the local server
 * forwards /functions/v1 to Deno, and the function reads the keys the server made on first start.
 */
import type { Browser } from 'playwright-core';
import { type FunctionsServer, startFunctionsServer } from '../../scripts/functions/server';
import { TestWallet } from '../fixtures/testWallet';
import { freePort } from '../server/support/testServer';
import { DESKTOP, launchBrowser, screenshot } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { type RunningServer, startServer } from './support/server';

let browser: Browser;
let server: RunningServer;
let functions: FunctionsServer;
const functionOutput: string[] = [];

beforeAll(async () => {
  const functionsPort = await freePort();
  server = await startServer({ FUNCTIONS_URL: `http://127.0.0.1:${functionsPort}` });
  browser = await launchBrowser();
  functions = await startFunctionsServer({
    supabaseUrl: server.url,
    port: functionsPort,
    dataDir: server.dataDir,
    log: (_name, line) => functionOutput.push(line),
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await functions?.close();
  await server?.stop();
});

test('a wallet signs in through the Deno-served wallet-login function', async () => {
  const wallet = new TestWallet(1);
  const address = wallet.accounts[0]!.address.toLowerCase();
  const context = await browser.newContext({ viewport: DESKTOP });
  await injectTestWallet(context, wallet);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  const short = `${address.slice(0, 6)}...${address.slice(-4)}`;
  await page.getByRole('button', { name: `Wallet ${short}, verified` }).waitFor();
  await screenshot(page, 'wallet-verified-deno-en-desktop');

  const logged = functionOutput
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(logged).toContainEqual({ event: 'wallet signed in', wallet: address });
  const token = await page.evaluate(
    (key) => window.localStorage.getItem(key),
    `auth_token_${address}`,
  );
  const header = JSON.parse(Buffer.from(token!.split('.')[0]!, 'base64url').toString());
  expect(header).toEqual(expect.objectContaining({ alg: 'ES256' }));
  await context.close();
});

/**
 * The sign-in signature check on its own (supabase/functions/_shared/walletSignature.ts): a key's
 * signature needs no chain, CHAIN_RPC_URLS is read strictly, and a chain endpoint that does not
 * answer is said so, never taken for a signature that does not verify. The smart accounts
 * themselves sign in against a real chain in smartAccountSignIn.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import {
  parseChainRpcUrls,
  signatureVerifier,
} from '../../supabase/functions/_shared/walletSignature';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../support/timeouts';

const message = 'taleweaver.example wants you to sign in with your Ethereum account: …';

describe('CHAIN_RPC_URLS', () => {
  test('is read as <chainId>=<url> pairs, spaces and empty entries aside', () => {
    const endpoints = parseChainRpcUrls(
      ' 8453=https://base.example/v2/KEY , 1=http://127.0.0.1:8545,,',
    );
    expect([...endpoints]).toEqual([
      [8453, 'https://base.example/v2/KEY'],
      [1, 'http://127.0.0.1:8545'],
    ]);
    expect(parseChainRpcUrls(undefined).size).toBe(0);
    expect(parseChainRpcUrls('').size).toBe(0);
  });

  test.each([
    ['base=https://base.example', /entry 1 must be <chainId>=<url>/],
    ['https://base.example', /entry 1 must be <chainId>=<url>/],
    ['0=https://base.example', /entry 1 must be <chainId>=<url>/],
    ['1=https://a.example,8453=not a url', /entry 2 \(chain 8453\) has no valid URL/],
    ['1=wss://a.example', /entry 1 \(chain 1\) must be an http or https URL/],
    ['1=https://a.example/KEY1,1=https://b.example/KEY2', /names chain 1 a second time/],
  ])('refuses %j, naming the entry but never its URL', (value, reason) => {
    let thrown: unknown;
    try {
      parseChainRpcUrls(value);
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown)).toMatch(reason);
    expect(String(thrown)).not.toMatch(/KEY|a\.example|b\.example/);
  });
});

describe('a key’s signature', () => {
  test('is the account’s with no chain configured, and another key’s is not', async () => {
    const verify = signatureVerifier({ endpoints: new Map() });
    const wallet = Wallet.createRandom();
    const signature = await wallet.signMessage(message);
    await expect(
      verify({ address: wallet.address, message, signature, chainId: 1 }),
    ).resolves.toEqual({ kind: 'valid', by: 'key' });
    // Another key's, with no endpoint for the chain: only the chain could say whether the
    // account is a contract that vouches for it.
    const other = await Wallet.createRandom().signMessage(message);
    await expect(
      verify({ address: wallet.address, message, signature: other, chainId: 1 }),
    ).resolves.toEqual({ kind: 'chainNotConfigured', chainId: 1 });
  });
});

describe('a chain endpoint that gives no answer', () => {
  const servers: http.Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }, STOP_TIMEOUT_MS);

  /** A local endpoint that answers every call with `answer` (or never, when it is null). */
  async function endpoint(answer: ((response: http.ServerResponse) => void) | null) {
    const server = http.createServer((request, response) => {
      request.resume();
      if (answer) request.on('end', () => answer(response));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** A port nothing listens on: one a server had, then gave back. */
  async function closedPort() {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return `http://127.0.0.1:${port}`;
  }

  async function verdictWith(url: string, timeoutMs = 2_000) {
    const verify = signatureVerifier({ endpoints: new Map([[8453, url]]), timeoutMs });
    const account = Wallet.createRandom().address;
    // Not the account's key: only its contract, on chain 8453, could vouch for it.
    const signature = await Wallet.createRandom().signMessage(message);
    return verify({ address: account, message, signature, chainId: 8453 });
  }

  test(
    'a closed port is an unavailable chain, not a wrong signature',
    async () => {
      await expect(verdictWith(await closedPort())).resolves.toEqual({
        kind: 'chainUnavailable',
        chainId: 8453,
        reason: 'could not be reached',
      });
    },
    SERVER_TIMEOUT_MS,
  );

  test(
    'a node that never answers is given up on after the timeout',
    async () => {
      await expect(verdictWith(await endpoint(null), 300)).resolves.toEqual({
        kind: 'chainUnavailable',
        chainId: 8453,
        reason: 'timed out',
      });
    },
    SERVER_TIMEOUT_MS,
  );

  test.each([429, 502, 503])(
    'an HTTP %i is an unavailable chain',
    async (status) => {
      const url = await endpoint((response) => response.writeHead(status).end('busy'));
      await expect(verdictWith(url)).resolves.toEqual({
        kind: 'chainUnavailable',
        chainId: 8453,
        reason: `answered HTTP ${status}`,
      });
    },
    SERVER_TIMEOUT_MS,
  );

  test(
    'a node over its own limit (JSON-RPC -32005) is an unavailable chain',
    async () => {
      const url = await endpoint((response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            error: { code: -32005, message: 'limit exceeded' },
          }),
        ),
      );
      await expect(verdictWith(url)).resolves.toMatchObject({ kind: 'chainUnavailable' });
    },
    SERVER_TIMEOUT_MS,
  );
});

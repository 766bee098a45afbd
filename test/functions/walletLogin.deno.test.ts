/**
 * The wallet-login Edge Function under Deno 2.1 (the Edge Runtime's), as `npm run
 * functions:serve` runs it, against the local server on PostgreSQL (PGlite where there is none):
 * a real wallet signs in, the token it gets is what the REST API trusts, for that wallet's rows
 * only, and every sign-in attack is refused by the Deno function as by the local server.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Wallet } from 'ethers';
import { decodeProtectedHeader, decodeJwt } from 'jose';
import { type FunctionsServer, startFunctionsServer } from '../../scripts/functions/server';
import { testBackends } from '../server/support/databases';
import { plausibleResult } from '../server/support/results';
import { type LocalChain, startLocalChain } from '../fixtures/chain/localChain';
import { type ChainGate, startChainGate } from '../server/support/chainGate';
import { describeSignInAttacks, describeTokenForgeries } from '../server/support/signInAttacks';
import { describeSmartAccountSignIns } from '../server/support/smartAccountSignIns';
import {
  type BackendTarget,
  freePort,
  postLogin,
  signIn,
  signedLogin,
  startTestServer,
  type TestServer,
} from '../server/support/testServer';
import {
  CHAIN_START_TIMEOUT_MS,
  DATABASE_START_TIMEOUT_MS,
  STOP_TIMEOUT_MS,
} from '../support/timeouts';

/** Deno starts in a second or two; its first run here downloads the function's npm packages. */
const DENO_START_TIMEOUT_MS = 240_000;
const database = testBackends().at(-1)!;

describe(`wallet-login under Deno, against the local server on ${database.name}`, () => {
  let server: TestServer;
  let functions: FunctionsServer;
  let dataDir: string;
  let chain: LocalChain;
  let gate: ChainGate;
  /** The local server's REST API, with the functions served under Deno. */
  const target = () => ({ ...server, functionsUrl: functions.url });
  const functionOutput: string[] = [];

  beforeAll(
    async () => {
      // A real chain for smart accounts, named to the function as `supabase secrets set` would.
      chain = await startLocalChain();
      gate = await startChainGate(chain.url);
      // The local server forwards /functions/v1 to where the functions will listen.
      const functionsPort = await freePort();
      server = await startTestServer(database, {
        SIGN_IN_RATE_LIMIT: '1000',
        FUNCTIONS_URL: `http://127.0.0.1:${functionsPort}`,
      });
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-functions-'));
      // The function's secrets, as `supabase secrets set` would give them: the server's keys.
      functions = await startFunctionsServer({
        supabaseUrl: server.url,
        port: functionsPort,
        dataDir,
        env: {
          ...process.env,
          WALLET_LOGIN_SIGNING_JWK: JSON.stringify(server.tokens.keys.signingJwk),
          SUPABASE_SECRET_KEYS: JSON.stringify({ default: server.tokens.keys.secretKey }),
          CHAIN_RPC_URLS: `${chain.chainId}=${gate.url}`,
        },
        log: (_name, line) => functionOutput.push(line),
      });
    },
    CHAIN_START_TIMEOUT_MS + DATABASE_START_TIMEOUT_MS + DENO_START_TIMEOUT_MS,
  );

  afterAll(async () => {
    await functions?.close();
    await server?.close();
    await gate?.close();
    await chain?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, STOP_TIMEOUT_MS);

  test('a wallet signs in, and its token writes its own rows and no one else’s', async () => {
    const wallet = Wallet.createRandom();
    const address = wallet.address.toLowerCase();
    const { status, body } = await postLogin(target(), await signedLogin(target(), wallet));
    expect(status).toBe(200);
    const token = body.access_token as string;
    expect(decodeProtectedHeader(token)).toEqual({
      alg: 'ES256',
      kid: server.tokens.keys.signingJwk.kid,
      typ: 'JWT',
    });
    const claims = decodeJwt(token);
    expect(claims).toEqual(
      expect.objectContaining({
        role: 'authenticated',
        aud: 'authenticated',
        wallet_address: address,
      }),
    );
    expect(claims.sub).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(claims.exp! - claims.iat!).toBe(86_400);
    expect(functionOutput.join('\n')).toContain('wallet signed in');

    const player = server.backend.forWallet({ address, token });
    const renamed = await player
      .from('users')
      .update({ username: 'Deno Signer' })
      .eq('wallet_address', address)
      .select('username');
    expect(renamed.error).toBeNull();
    expect(renamed.data).toEqual([{ username: 'Deno Signer' }]);

    const stranger = Wallet.createRandom().address.toLowerCase();
    await server.backend.anon.rpc('create_user_if_not_exists', { p_wallet_address: stranger });
    const forged = await player
      .from('game_results')
      .insert({ wallet_address: stranger, ...plausibleResult({ character: 'Impostor' }) });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe('42501');
  });

  test('the game reaches the function through the local server, which forwards to Deno', async () => {
    const through: BackendTarget = { url: server.url, backend: server.backend };
    const wallet = Wallet.createRandom();
    const before = functionOutput.length;
    expect(await signIn(through, wallet)).toMatch(/^ey/);
    expect(functionOutput.slice(before).join('\n')).toContain(wallet.address.toLowerCase());
  });

  test('a login past the sign-in limit gets PostgREST’s 429, passed on as it is', async () => {
    // This minute's and the next minute's counts for the local address, spent: whichever
    // minute the login lands in, it is one too many.
    const spend = (attempts: number) =>
      server.db.pool.query(
        `insert into public.sign_in_attempts (client_address, minute, attempts)
         select '127.0.0.1', date_trunc('minute', now()) + m * interval '1 minute', $1
         from generate_series(0, 1) as m
         on conflict (client_address, minute) do update set attempts = excluded.attempts`,
        [attempts],
      );
    await spend(1000);
    try {
      const wallet = Wallet.createRandom();
      const response = await fetch(`${functions.url}/functions/v1/wallet-login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // What a client might write to pass for someone else; the gateway's address counts.
          'x-forwarded-for': '203.0.113.50',
          'cf-connecting-ip': '203.0.113.51',
        },
        body: JSON.stringify({ message: 'hello', signature: wallet.address }),
      });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await response.json()).toEqual({
        code: 'rate_limited',
        message: expect.stringMatching(/^Too many sign-in requests; retry in \d+ seconds$/),
        details: null,
        hint: null,
      });
    } finally {
      await server.db.pool.query('delete from public.sign_in_attempts');
    }
  });

  describeSignInAttacks(target);
  describeSmartAccountSignIns(target, () => ({ chain, gate }));
  describeTokenForgeries(
    () => ({ ...target(), signingJwk: server.tokens.keys.signingJwk }),
    () => '0x' + 'ab'.repeat(20),
  );
});

describe('the local server, forwarding to a functions server that is not running', () => {
  test(
    'answers 502 and says what to run',
    async () => {
      const server = await startTestServer(testBackends()[0]!, {
        FUNCTIONS_URL: `http://127.0.0.1:${await freePort()}`,
      });
      try {
        const { status, body } = await postLogin(server, { message: 'x', signature: '0x' });
        expect(status).toBe(502);
        expect(body.message).toMatch(/npm run functions:serve/);
      } finally {
        await server.close();
      }
    },
    DATABASE_START_TIMEOUT_MS,
  );
});

/**
 * Every refusal the backend owes a modified client or a stranger (issue: backend, "Security
 * tests"), against the real server on PGlite and on PostgreSQL.
 */
import { Wallet } from 'ethers';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { plausibleResult } from './support/results';
import { describeSignInAttacks, describeTokenForgeries } from './support/signInAttacks';
import {
  postLogin,
  signIn,
  signedLogin,
  startTestServer,
  type TestServer,
} from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

describe.each(testBackends())('backend security on $name', (database) => {
  let server: TestServer;
  const alice = Wallet.createRandom();
  const bob = Wallet.createRandom();
  const aliceAddress = alice.address.toLowerCase();
  const bobAddress = bob.address.toLowerCase();
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async () => {
    // Sign-in is rate-limited per address; this suite signs in more often than a player would.
    server = await startTestServer(database, { SIGN_IN_RATE_LIMIT: '1000' });
    aliceToken = await signIn(server, alice);
    bobToken = await signIn(server, bob);
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  /** A raw request to the REST API, for what supabase-js would never send. */
  const rest = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${server.url}/rest/v1/${path}`, {
      ...init,
      headers: {
        apikey: DEFAULT_PUBLISHABLE_KEY,
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
  const insertAs = (token: string, row: object) =>
    rest('game_results', { method: 'POST', token, body: JSON.stringify(row) });

  describeTokenForgeries(
    () => ({ ...server, signingJwk: server.tokens.keys.signingJwk }),
    () => aliceAddress,
  );

  test('a request without the API key is refused', async () => {
    const response = await fetch(`${server.url}/rest/v1/leaderboard`);
    expect(response.status).toBe(401);
  });

  test('the secret key runs as service_role, the publishable key cannot spend a nonce', async () => {
    const spend = (apikey: string) =>
      rest('rpc/spend_sign_in_nonce', {
        method: 'POST',
        headers: { apikey },
        body: JSON.stringify({
          p_wallet_address: bobAddress,
          p_nonce: 'f00dfeedf00dfeedf00dfeedf00dfeed',
          p_max_age_seconds: 600,
        }),
      });
    const asVisitor = await spend(DEFAULT_PUBLISHABLE_KEY);
    expect(asVisitor.status).toBe(401);
    const asServer = await spend(server.tokens.keys.secretKey);
    expect(asServer.status).toBe(200);
    expect(await asServer.json()).toEqual([{ spent: false }]);
  });

  describe('sign-in cannot be blocked', () => {
    test("a stranger's nonce requests for the owner's address leave the owner's nonce usable", async () => {
      const owner = Wallet.createRandom();
      const login = await signedLogin(server, owner);
      for (let i = 0; i < 5; i += 1) {
        const { error } = await server.backend.anon.rpc('create_user_if_not_exists', {
          p_wallet_address: owner.address.toLowerCase(),
        });
        expect(error).toBeNull();
      }
      expect((await postLogin(server, login)).status).toBe(200);
      expect((await postLogin(server, login)).status).toBe(401);
    });
  });

  describeSignInAttacks(() => server);

  describe('row-level security', () => {
    test("a result for another wallet's address is refused", async () => {
      const response = await insertAs(aliceToken, {
        wallet_address: bobAddress,
        ...plausibleResult({ character: 'Impostor' }),
      });
      expect(response.status).toBe(403);
      expect((await response.json()).code).toBe('42501');
    });

    test("another wallet's user row cannot be changed", async () => {
      const { error } = await server.backend
        .forWallet({ address: aliceAddress, token: aliceToken })
        .from('users')
        .update({ username: 'hijacked' })
        .eq('wallet_address', bobAddress);
      expect(error).toBeNull(); // PostgREST semantics: RLS hides the row, nothing is updated
      const { rows } = await server.db.pool.query(
        'select username from public.users where wallet_address = $1',
        [bobAddress],
      );
      expect(rows[0]?.username).toBeNull();
    });

    test("another wallet's results cannot be read", async () => {
      await insertAs(bobToken, {
        wallet_address: bobAddress,
        ...plausibleResult({ character: 'Bob' }),
      });
      const { data } = await server.backend
        .forWallet({ address: aliceAddress, token: aliceToken })
        .from('game_results')
        .select('*')
        .eq('wallet_address', bobAddress);
      expect(data).toEqual([]);
    });

    test('no nonce can be written through the users row, even the own one', async () => {
      const response = await rest(`users?wallet_address=eq.${aliceAddress}`, {
        method: 'PATCH',
        token: aliceToken,
        body: JSON.stringify({ nonce: 'chosen' }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe('PGRST100');
    });

    test('anon cannot read results or users directly', async () => {
      expect((await rest('game_results?select=score')).status).toBe(401);
      expect((await rest('users?select=username')).status).toBe(401);
    });
  });

  describe('scores the database refuses', () => {
    test('an implausible score (not what the formula gives)', async () => {
      const result = plausibleResult({ character: 'Cheater' });
      const response = await insertAs(aliceToken, {
        wallet_address: aliceAddress,
        ...result,
        score: result.score + 50,
      });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.code).toBe('23514');
      expect(body.message).toMatch(/does not match the ending score/);
    });

    test('an out-of-range component', async () => {
      const result = plausibleResult({ character: 'Overachiever' });
      const response = await insertAs(aliceToken, {
        wallet_address: aliceAddress,
        ...result,
        detailed_stats: {
          ...result.detailed_stats,
          scoreBreakdown: { ...result.detailed_stats.scoreBreakdown, decisions: 1000 },
        },
      });
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe('23514');
    });

    test('a duplicate within 24 hours, also when two arrive at the same instant', async () => {
      const row = { wallet_address: aliceAddress, ...plausibleResult({ character: 'Twin' }) };
      const responses = await Promise.all([insertAs(aliceToken, row), insertAs(aliceToken, row)]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      const again = await insertAs(aliceToken, row);
      expect(again.status).toBe(409);
      expect((await again.json()).message).toBe('This result has already been saved recently.');
    });
  });

  describe('requests outside the subset', () => {
    test.each([
      ['a table outside the allow-list', 'pg_user?select=usename'],
      ['a column outside the allow-list', 'users?select=nonce'],
      ['a filter outside the subset', 'leaderboard?select=score&genre=like.*Fantasy*'],
      ['an order on an unknown column', 'leaderboard?select=score&order=nonce.desc'],
      ['a huge limit', 'leaderboard?select=score&limit=100000'],
    ])('%s is 400', async (_name, path) => {
      const response = await rest(path);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(
        expect.objectContaining({ code: 'PGRST100', message: expect.any(String) }),
      );
    });

    test('a function outside the allow-list is 400', async () => {
      const response = await rest('rpc/pg_sleep', { method: 'POST', body: '{"seconds": 1}' });
      expect(response.status).toBe(400);
    });

    test('an oversized body is 413', async () => {
      const response = await insertAs(aliceToken, {
        wallet_address: aliceAddress,
        ...plausibleResult(),
        genre: 'x'.repeat(100_000),
      });
      expect(response.status).toBe(413);
    });
  });
});

describe('rate limits on sign-in', () => {
  // It starts its own embedded database, which takes seconds on a busy machine.
  test(
    'nonce requests beyond the limit per minute get 429',
    async () => {
      const [pglite] = testBackends();
      const server = await startTestServer(pglite!, { SIGN_IN_RATE_LIMIT: '3' });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i += 1) {
          const { status } = await server.backend.anon.rpc('create_user_if_not_exists', {
            p_wallet_address: Wallet.createRandom().address.toLowerCase(),
          });
          statuses.push(status);
        }
        expect(statuses).toEqual([200, 200, 200, 429]);
        // A percent-encoded path reaches the same function and is limited too.
        const encoded = await fetch(`${server.url}/rest/v1/rpc/create_user_if_not_exist%73`, {
          method: 'POST',
          headers: { apikey: DEFAULT_PUBLISHABLE_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ p_wallet_address: Wallet.createRandom().address.toLowerCase() }),
        });
        expect(encoded.status).toBe(429);
        // Reading the leaderboard is not limited.
        const { status } = await server.backend.anon.from('leaderboard').select('*');
        expect(status).toBe(200);
      } finally {
        await server.close();
      }
    },
    DATABASE_START_TIMEOUT_MS,
  );
});

/**
 * Sign-in limits counted in PostgreSQL (issue 29, migration 20261126130000_sign_in_limits.sql),
 * so that they hold on Supabase, where nothing remembers between requests: nonce requests and
 * logins share one count per client address per minute, refused with PostgREST's 429 and a
 * Retry-After whichever call is refused, and a flood leaves no rows behind for long. Through the
 * real server and supabase-js, on PGlite and on PostgreSQL.
 */
import { Wallet } from 'ethers';
import { withClaims } from '../../server/db';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { functionsBase, signIn, startTestServer, type TestServer } from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const LIMIT = 4;
const RATE_LIMITED = {
  code: 'rate_limited',
  message: expect.stringMatching(/^Too many sign-in requests; retry in \d+ seconds$/),
  details: null,
  hint: null,
};

describe.each(testBackends())('sign-in limits on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(database, { SIGN_IN_RATE_LIMIT: String(LIMIT) });
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  /** Starts every test with a clean count, whatever minute it is. */
  beforeEach(() => server.db.pool.query('delete from public.sign_in_attempts'));

  /** A nonce request as the app sends it, with extra headers a client might add. */
  const askNonce = (headers: Record<string, string> = {}) =>
    fetch(`${server.url}/rest/v1/rpc/create_user_if_not_exists`, {
      method: 'POST',
      headers: { apikey: DEFAULT_PUBLISHABLE_KEY, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ p_wallet_address: Wallet.createRandom().address.toLowerCase() }),
    });

  const login = (headers: Record<string, string> = {}) =>
    fetch(`${functionsBase(server)}/wallet-login`, {
      method: 'POST',
      headers: { apikey: DEFAULT_PUBLISHABLE_KEY, 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  /**
   * Fills this minute's and the next minute's count for the address the server sees, so a test
   * does not depend on which side of a minute it runs.
   */
  const spendTheLimit = () =>
    server.db.pool.query(
      `insert into public.sign_in_attempts (client_address, minute, attempts)
       select '127.0.0.1', date_trunc('minute', now()) + m * interval '1 minute', $1
       from generate_series(0, 1) as m
       on conflict (client_address, minute) do update set attempts = excluded.attempts`,
      [LIMIT],
    );

  /** The database's current minute, which the count is kept by. */
  const countingMinute = async () =>
    (
      await server.db.pool.query<{ minute: string }>(
        "select date_trunc('minute', now())::text as minute",
      )
    ).rows[0]!.minute;

  test('nonce requests and logins share one count; the one past it gets 429', async () => {
    // The count is per minute: on a loaded machine the requests may straddle a minute's end,
    // and the later ones then count afresh. Such a run says nothing; it is run again.
    let statuses: number[] = [];
    let nonce: Response | undefined;
    let refusedLogin: Response | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await server.db.pool.query('delete from public.sign_in_attempts');
      const minute = await countingMinute();
      statuses = [];
      for (let i = 0; i < LIMIT / 2; i += 1) {
        statuses.push((await askNonce()).status, (await login()).status);
      }
      nonce = await askNonce();
      refusedLogin = await login();
      if ((await countingMinute()) === minute) break;
    }
    // Counted, then refused for what it held (an empty login is a 400).
    expect(statuses).toEqual([200, 400, 200, 400]);
    for (const refused of [nonce!, refusedLogin!]) {
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual(RATE_LIMITED);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Reading the leaderboard is not limited.
    expect((await server.backend.anon.from('leaderboard').select('*')).status).toBe(200);
  });

  test('a client cannot name another address to dodge the count', async () => {
    await spendTheLimit();
    const spoofs: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'cf-connecting-ip': '203.0.113.8' },
      { 'x-real-ip': '203.0.113.9' },
    ];
    for (const headers of spoofs) {
      expect((await askNonce(headers)).status).toBe(429);
      expect((await login(headers)).status).toBe(429);
    }
  });

  test('a refused login tells a page of the site how long to wait', async () => {
    await spendTheLimit();
    const origin = server.url;
    const response = await login({ origin });
    expect(response.status).toBe(429);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });

  test('supabase-js reads the refusal as an error with its code', async () => {
    await spendTheLimit();
    const { error, status } = await server.backend.anon.rpc('create_user_if_not_exists', {
      p_wallet_address: Wallet.createRandom().address.toLowerCase(),
    });
    expect(status).toBe(429);
    expect(error).toMatchObject({ code: 'rate_limited' });
  });

  test('counts of past minutes are removed as new ones are counted', async () => {
    await server.db.pool.query(
      `insert into public.sign_in_attempts (client_address, minute, attempts)
       select 'flood-' || n, date_trunc('minute', now()) - interval '2 minutes', 1
       from generate_series(1, 500) as n`,
    );
    expect((await askNonce()).status).toBe(200);
    const { rows } = await server.db.pool.query(
      'select client_address from public.sign_in_attempts',
    );
    expect(rows).toEqual([{ client_address: '127.0.0.1' }]);
  });

  test('players who never signed in are removed once their nonces expire', async () => {
    const stranger = Wallet.createRandom().address.toLowerCase();
    const player = Wallet.createRandom();
    await server.backend.anon.rpc('create_user_if_not_exists', { p_wallet_address: stranger });
    await signIn(server, player);
    // An hour later: the stranger's nonce is past any sign-in window, and so is the row.
    await server.db.pool.query(
      `update public.users set created_at = now() - interval '2 hours'
       where wallet_address = any($1)`,
      [[stranger, player.address.toLowerCase()]],
    );
    await server.db.pool.query(
      `update public.sign_in_nonces set issued_at = now() - interval '2 hours'
       where wallet_address = $1`,
      [stranger],
    );
    expect((await askNonce()).status).toBe(200);
    const { rows } = await server.db.pool.query(
      'select wallet_address from public.users where wallet_address = any($1)',
      [[stranger, player.address.toLowerCase()]],
    );
    expect(rows).toEqual([{ wallet_address: player.address.toLowerCase() }]);
  });

  test('an unclaimed player with a nonce still pending is kept', async () => {
    const waiting = Wallet.createRandom().address.toLowerCase();
    await server.backend.anon.rpc('create_user_if_not_exists', { p_wallet_address: waiting });
    await server.db.pool.query(
      `update public.users set created_at = now() - interval '2 hours' where wallet_address = $1`,
      [waiting],
    );
    expect((await askNonce()).status).toBe(200);
    const { rows } = await server.db.pool.query(
      'select count(*)::int as kept from public.users where wallet_address = $1',
      [waiting],
    );
    expect(rows).toEqual([{ kept: 1 }]);
  });

  test('a sign-in claims the player', async () => {
    const player = Wallet.createRandom();
    await signIn(server, player);
    const { rows } = await server.db.pool.query(
      'select signed_in_at is not null as claimed from public.users where wallet_address = $1',
      [player.address.toLowerCase()],
    );
    expect(rows).toEqual([{ claimed: true }]);
  });

  test('only the server’s key may count a login', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      await expect(
        withClaims(server.db, { role }, (client) =>
          client.query("select public.admit_sign_in('{}'::jsonb)"),
        ),
      ).rejects.toMatchObject({ code: '42501' });
    }
  });
});

describe.each(testBackends())('the client address on $name', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  test.each([
    [
      'Cloudflare’s address first',
      { 'cf-connecting-ip': '198.51.100.1', 'x-forwarded-for': '1.1.1.1' },
      '198.51.100.1',
    ],
    [
      'the last forwarded hop, not what the client wrote first',
      { 'x-forwarded-for': '6.6.6.6, 198.51.100.2' },
      '198.51.100.2',
    ],
    ['one forwarded address', { 'x-forwarded-for': ' 198.51.100.3 ' }, '198.51.100.3'],
    ['no address at all', {}, 'unknown'],
    ['an empty header', { 'cf-connecting-ip': '', 'x-forwarded-for': '' }, 'unknown'],
  ])('%s', async (_what, headers, address) => {
    const { rows } = await server.db.pool.query<{ address: string }>(
      'select public.client_address_of($1) as address',
      [headers],
    );
    expect(rows).toEqual([{ address }]);
  });
});

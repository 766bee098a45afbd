/**
 * Rewrites on the leaderboard (issue 22, migration 20261126000000_leaderboard_rewrites.sql): what
 * a result's detailed_stats.rewrites may hold, and the leaderboard's rewrites column, read through
 * the real server as the app reads it, on PGlite and on PostgreSQL.
 */
import { Wallet } from 'ethers';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { plausibleResult } from './support/results';
import { signIn, startTestServer, type TestServer } from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const CONSTRAINT = 'game_results_detailed_stats_rewrites_range';
const TURNS = 9;

/** A plausible result of TURNS turns whose detailed_stats.rewrites is `rewrites`. */
function resultWithRewrites(character: string, rewrites: unknown) {
  const result = plausibleResult({ character, turns: TURNS });
  return { ...result, detailed_stats: { ...result.detailed_stats, rewrites } };
}

describe.each(testBackends())('rewrites on the leaderboard on $name', (database) => {
  let server: TestServer;
  const player = Wallet.createRandom();
  const address = player.address.toLowerCase();
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(database);
    token = await signIn(server, player);
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  const save = (row: object) =>
    server.backend
      .forWallet({ address, token })
      .from('game_results')
      .insert({ wallet_address: address, ...row });

  /** The leaderboard row of `character`, selected by name as the app may select it. */
  async function boardRowOf(character: string) {
    const { data, error } = await server.backend.anon
      .from('leaderboard')
      .select('character_name,score,turn_count,rewrites')
      .eq('character_name', character);
    expect(error).toBeNull();
    return data;
  }

  test('a result with 2 rewrites shows 2 beside its score', async () => {
    const row = resultWithRewrites('Twice Told', 2);
    expect((await save(row)).error).toBeNull();
    expect(await boardRowOf('Twice Told')).toEqual([
      { character_name: 'Twice Told', score: row.score, turn_count: TURNS, rewrites: 2 },
    ]);
  });

  test('a result saved without the key (before rewrites existed) shows 0', async () => {
    const row = plausibleResult({ character: 'Told Once', turns: TURNS });
    expect(row.detailed_stats).not.toHaveProperty('rewrites');
    expect((await save(row)).error).toBeNull();
    expect(await boardRowOf('Told Once')).toEqual([
      expect.objectContaining({ character_name: 'Told Once', rewrites: 0 }),
    ]);
  });

  test('0 and 3 per turn are the bounds, and select=* includes the rewrites', async () => {
    expect((await save(resultWithRewrites('Never Rewritten', 0))).error).toBeNull();
    expect((await save(resultWithRewrites('Always Rewritten', 3 * TURNS))).error).toBeNull();
    const { data, error } = await server.backend.anon
      .from('leaderboard')
      .select('*')
      .order('score', { ascending: false })
      .limit(20);
    expect(error).toBeNull();
    const rewrites = Object.fromEntries(
      (data as { character_name: string; rewrites: number }[]).map((row) => [
        row.character_name,
        row.rewrites,
      ]),
    );
    expect(rewrites).toMatchObject({ 'Never Rewritten': 0, 'Always Rewritten': 3 * TURNS });
  });

  test.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['more than 3 per turn', 3 * TURNS + 1],
    ['a string', '2'],
    ['a boolean', true],
    ['JSON null', null],
    ['an object', { count: 2 }],
  ])('a rewrites value that is %s is refused (23514)', async (what, rewrites) => {
    const response = await fetch(`${server.url}/rest/v1/game_results`, {
      method: 'POST',
      headers: {
        apikey: DEFAULT_PUBLISHABLE_KEY,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        wallet_address: address,
        ...resultWithRewrites(`Refused ${what}`, rewrites),
      }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('23514');
    expect(body.message).toContain(CONSTRAINT);
    expect(await boardRowOf(`Refused ${what}`)).toEqual([]);
  });

  test('the database names the constraint, and checks updates too', async () => {
    const stored = resultWithRewrites('Edited Later', 1);
    expect((await save(stored)).error).toBeNull();
    // Even the table's owner cannot put an out-of-range count in afterwards.
    await expect(
      server.db.pool.query(
        `update public.game_results
         set detailed_stats = detailed_stats || '{"rewrites": 100}'
         where character_name = 'Edited Later'`,
      ),
    ).rejects.toMatchObject({ code: '23514', constraint: CONSTRAINT });
  });

  test('the view reads with the caller’s rights (20261126120000) and keeps its grants', async () => {
    const { rows } = await server.db.pool.query<{ options: string[] | null }>(
      `select c.reloptions as options from pg_catalog.pg_class as c
       where c.oid = 'public.leaderboard'::regclass`,
    );
    expect(rows[0]?.options).toEqual(['security_invoker=true']);
    const privileges = await server.db.pool.query<Record<string, string | boolean>>(
      `select role,
              pg_catalog.has_table_privilege(role, 'public.leaderboard', 'select') as "select",
              pg_catalog.has_table_privilege(role, 'public.leaderboard', 'insert') as "insert",
              pg_catalog.has_table_privilege(role, 'public.leaderboard', 'update') as "update",
              pg_catalog.has_table_privilege(role, 'public.leaderboard', 'delete') as "delete"
       from unnest(array['anon', 'authenticated', 'service_role']) as role
       order by role`,
    );
    expect(privileges.rows).toEqual([
      { role: 'anon', select: true, insert: false, update: false, delete: false },
      { role: 'authenticated', select: true, insert: false, update: false, delete: false },
      { role: 'service_role', select: true, insert: true, update: true, delete: true },
    ]);
  });
});

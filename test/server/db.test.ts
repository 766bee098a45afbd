import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { PoolClient } from 'pg';
import {
  DatabaseBusyError,
  MAX_QUEUED_REQUESTS,
  migrate,
  openDatabase,
  withClaims,
  type Database,
  type RequestClaims,
} from '../../server/db';
import { endingScore } from '../../src/engine/score';
import { ENDING_TYPES, type ScoreBreakdown } from '../../src/engine/types';
import {
  DATABASE_START_TIMEOUT_MS,
  assertPgliteCanLoad,
  openEmptyPglite,
  testBackends,
} from './support/databases';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const PLAYER = `0x${'a1'.repeat(20)}`;
const OTHER = `0x${'b2'.repeat(20)}`;
const ANON: RequestClaims = { role: 'anon' };
const asPlayer = (wallet: string): RequestClaims => ({
  role: 'authenticated',
  aud: 'authenticated',
  sub: wallet,
  wallet_address: wallet,
});

const MIGRATIONS = fs
  .readdirSync(path.resolve(__dirname, '../../supabase/migrations'))
  .filter((name) => name.endsWith('.sql'))
  .sort();

interface ResultInput {
  wallet?: string;
  character?: string;
  ending?: string;
  turnCount?: number;
  successRate?: number;
  breakdown?: Partial<ScoreBreakdown>;
  score?: number;
  detailedStats?: Record<string, unknown>;
}

/** A saved result as the ending screen sends it (SPEC.md section 3), scored by the engine. */
function result(input: ResultInput = {}) {
  const scoreBreakdown = {
    decisions: 70,
    consistency: 65,
    creativity: 40,
    morality: 55,
    ...input.breakdown,
  };
  const turnCount = input.turnCount ?? 12;
  const successRate = input.successRate ?? 67;
  const endingType = input.ending ?? 'Heroic Victory';
  const computed = endingScore({ scoreBreakdown, turnCount, successRate, endingType }).score;
  const detailedStats = input.detailedStats ?? {
    scoreBreakdown,
    playerStats: {
      moralScore: 20,
      riskScore: 40,
      traitConsistency: 60,
      creativity: 16,
      successRate,
    },
    turnCount,
    moralChoices: ['moral', 'neutral', 'moral'],
    successfulChoices: ['success', 'failure', 'success'],
    enhancedScore: computed,
  };
  return {
    wallet_address: input.wallet ?? PLAYER,
    score: input.score ?? computed,
    ending_type: endingType,
    character_name: input.character ?? 'Aria Vale',
    genre: 'Gothic mystery',
    turn_count: turnCount,
    detailed_stats: detailedStats,
  };
}

async function insertResult(client: PoolClient, row: ReturnType<typeof result>) {
  const { rows } = await client.query<{ id: string }>(
    `insert into public.game_results
       (wallet_address, score, ending_type, character_name, genre, turn_count, detailed_stats)
     values ($1, $2, $3, $4, $5, $6, $7)
     returning id`,
    [
      row.wallet_address,
      row.score,
      row.ending_type,
      row.character_name,
      row.genre,
      row.turn_count,
      JSON.stringify(row.detailed_stats),
    ],
  );
  return rows[0]!.id;
}

const saveAs = (db: Database, wallet: string, row: ReturnType<typeof result>) =>
  withClaims(db, asPlayer(wallet), (client) => insertResult(client, row));

describe.each(testBackends())('the game backend on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  let appliedFirst: string[];

  beforeAll(async () => {
    ({ db, drop } = await open());
    appliedFirst = await migrate(db);
    for (const wallet of [PLAYER, OTHER]) {
      await db.pool.query('select * from public.create_user_if_not_exists($1)', [wallet]);
    }
  }, DATABASE_START_TIMEOUT_MS);

  afterAll(async () => {
    await drop?.();
  }, STOP_TIMEOUT_MS);

  test('migrate applies every migration once, and nothing the second time', async () => {
    expect(appliedFirst).toEqual(MIGRATIONS);
    expect(await migrate(db)).toEqual([]);
  });

  describe('a visitor (anon)', () => {
    test('reads the leaderboard, including results saved by players', async () => {
      await saveAs(db, PLAYER, result({ character: 'Leader Board' }));
      const { rows } = await withClaims(db, ANON, (client) =>
        client.query('select * from public.leaderboard order by score desc limit 20'),
      );
      expect(rows).toContainEqual(
        expect.objectContaining({ wallet_address: PLAYER, character_name: 'Leader Board' }),
      );
      expect(Object.keys(rows[0]!).sort()).toEqual(
        [
          'character_name',
          'created_at',
          'ending_type',
          'genre',
          'published_story_id',
          'rewrites',
          'score',
          'turn_count',
          'wallet_address',
        ].sort(),
      );
    });

    test.each([
      ['read game_results', 'select * from public.game_results'],
      ['read users', 'select wallet_address from public.users'],
      ['update users', `update public.users set username = 'Mallory'`],
      ['compute scores directly', `select public.ending_multiplier_tenths('Heroic Victory')`],
    ])('may not %s (42501)', async (_what, sql) => {
      await expect(withClaims(db, ANON, (client) => client.query(sql))).rejects.toMatchObject({
        code: '42501',
      });
    });

    test('may not save a result (42501)', async () => {
      await expect(
        withClaims(db, ANON, (client) => insertResult(client, result({ character: 'Anon' }))),
      ).rejects.toMatchObject({ code: '42501' });
    });
  });

  describe('a signed-in player (authenticated)', () => {
    test('saves a result scored by the engine and reads it back', async () => {
      const row = result({ character: 'Own Result', ending: '비극적 몰락' });
      const id = await saveAs(db, PLAYER, row);
      const { rows } = await withClaims(db, asPlayer(PLAYER), (client) =>
        client.query('select * from public.game_results where id = $1', [id]),
      );
      expect(rows).toEqual([
        expect.objectContaining({
          wallet_address: PLAYER,
          score: row.score,
          ending_type: '비극적 몰락',
          detailed_stats: row.detailed_stats,
        }),
      ]);
    });

    test("may not save another wallet's result (42501)", async () => {
      await expect(
        saveAs(db, PLAYER, result({ wallet: OTHER, character: 'Impostor' })),
      ).rejects.toMatchObject({ code: '42501' });
    });

    test('may not choose created_at, which would dodge the duplicate window (42501)', async () => {
      await expect(
        withClaims(db, asPlayer(PLAYER), (client) =>
          client.query(
            `insert into public.game_results
               (wallet_address, score, ending_type, character_name, genre, turn_count,
                detailed_stats, created_at)
             values ($1, 0, 'x', 'x', 'x', 1, '{}', now() - interval '2 days')`,
            [PLAYER],
          ),
        ),
      ).rejects.toMatchObject({ code: '42501' });
    });

    test("sees only its own results and its own user row, never another wallet's", async () => {
      await saveAs(db, OTHER, result({ wallet: OTHER, character: 'Private Other' }));
      const seen = await withClaims(db, asPlayer(PLAYER), async (client) => ({
        results: (await client.query('select distinct wallet_address from public.game_results'))
          .rows,
        users: (await client.query('select wallet_address, username from public.users')).rows,
        otherResults: (
          await client.query('select id from public.game_results where wallet_address = $1', [
            OTHER,
          ])
        ).rowCount,
      }));
      expect(seen).toEqual({
        results: [{ wallet_address: PLAYER }],
        users: [{ wallet_address: PLAYER, username: null }],
        otherResults: 0,
      });
    });

    test('may not read sign-in nonces, even its own (42501)', async () => {
      await withClaims(db, ANON, (client) =>
        client.query('select * from public.create_user_if_not_exists($1)', [PLAYER]),
      );
      await expect(
        withClaims(db, asPlayer(PLAYER), (client) =>
          client.query('select nonce from public.sign_in_nonces'),
        ),
      ).rejects.toMatchObject({ code: '42501' });
    });

    test('updates its own username and follow flag', async () => {
      const updated = await withClaims(db, asPlayer(PLAYER), (client) =>
        client.query(
          `update public.users set username = 'Aria', twitter_followed = true
           where wallet_address = $1
           returning username, twitter_followed, updated_at >= created_at as touched`,
          [PLAYER],
        ),
      );
      expect(updated.rows).toEqual([{ username: 'Aria', twitter_followed: true, touched: true }]);
    });

    test('may not choose its own nonce (42501)', async () => {
      await expect(
        withClaims(db, asPlayer(PLAYER), (client) =>
          client.query(
            `insert into public.sign_in_nonces (nonce, wallet_address) values ('chosen', $1)`,
            [PLAYER],
          ),
        ),
      ).rejects.toMatchObject({ code: '42501' });
    });

    test('updates no row of another wallet (0 rows), which stays as it was', async () => {
      const updated = await withClaims(db, asPlayer(PLAYER), (client) =>
        client.query(`update public.users set username = 'Mallory' where wallet_address = $1`, [
          OTHER,
        ]),
      );
      expect(updated.rowCount).toBe(0);
      const { rows } = await db.pool.query(
        'select username from public.users where wallet_address = $1',
        [OTHER],
      );
      expect(rows).toEqual([{ username: null }]);
    });

    test.each([
      ['longer than 32 characters', 'x'.repeat(33)],
      ['blank', '   '],
    ])('may not set a username %s (23514)', async (_what, username) => {
      await expect(
        withClaims(db, asPlayer(PLAYER), (client) =>
          client.query('update public.users set username = $1 where wallet_address = $2', [
            username,
            PLAYER,
          ]),
        ),
      ).rejects.toMatchObject({ code: '23514' });
    });
  });

  describe('create_user_if_not_exists', () => {
    const call = (sql: string, params: unknown[]) =>
      withClaims(db, ANON, async (client) => (await client.query(sql, params)).rows);

    test('gives a fresh nonce on every call, and keeps the earlier ones', async () => {
      const mixedCase = `0x${'C3d4'.repeat(10)}`;
      const [first] = await call('select * from public.create_user_if_not_exists($1)', [mixedCase]);
      const [second] = await call('select * from public.create_user_if_not_exists($1)', [
        mixedCase,
      ]);
      expect(first).toEqual({
        wallet_address: mixedCase.toLowerCase(),
        username: null,
        twitter_followed: false,
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      expect(second.nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(second.nonce).not.toBe(first.nonce);
      const { rows } = await db.pool.query(
        `select nonce, issued_at > now() - interval '1 minute' as recent
           from public.sign_in_nonces where wallet_address = $1 order by issued_at, nonce`,
        [mixedCase.toLowerCase()],
      );
      expect(rows).toHaveLength(2);
      expect(rows).toEqual(
        expect.arrayContaining([
          { nonce: first.nonce, recent: true },
          { nonce: second.nonce, recent: true },
        ]),
      );
    });

    test('clears out nonces too old to be spent', async () => {
      const wallet = `0x${'e6'.repeat(20)}`;
      const [old] = await call('select * from public.create_user_if_not_exists($1)', [wallet]);
      await db.pool.query(
        `update public.sign_in_nonces set issued_at = now() - interval '2 hours' where nonce = $1`,
        [old.nonce],
      );
      const [fresh] = await call('select * from public.create_user_if_not_exists($1)', [wallet]);
      const { rows } = await db.pool.query(
        'select nonce from public.sign_in_nonces where wallet_address = $1',
        [wallet],
      );
      expect(rows).toEqual([{ nonce: fresh.nonce }]);
    });

    /** The call made after signing: by the signed-in player, with their own token. */
    const callAfterSigning = (wallet: string, sql: string, params: unknown[]) =>
      withClaims(db, asPlayer(wallet), async (client) => (await client.query(sql, params)).rows);

    test('with p_nonce => null returns the signed-in player’s row without a nonce', async () => {
      const wallet = `0x${'d5'.repeat(20)}`;
      await call('select * from public.create_user_if_not_exists($1)', [wallet]);
      const rows = await callAfterSigning(
        wallet,
        'select * from public.create_user_if_not_exists(p_wallet_address => $1, p_nonce => null)',
        [wallet],
      );
      expect(rows).toEqual([
        { wallet_address: wallet, username: null, twitter_followed: false, nonce: null },
      ]);
    });

    test('with p_nonce => null reads with the caller’s rights: no one else’s row', async () => {
      const wallet = `0x${'d6'.repeat(20)}`;
      await call('select * from public.create_user_if_not_exists($1)', [wallet]);
      const rows = await callAfterSigning(
        OTHER,
        'select * from public.create_user_if_not_exists($1, null)',
        [wallet],
      );
      expect(rows).toEqual([]);
      // Without a token it is not callable at all (the nonce request is the visitor's one call).
      await expect(
        call('select * from public.create_user_if_not_exists($1, null)', [wallet]),
      ).rejects.toMatchObject({ code: '42501' });
    });

    test('with p_nonce => null leaves an issued nonce alone', async () => {
      const [issued] = await call('select * from public.create_user_if_not_exists($1)', [OTHER]);
      await callAfterSigning(OTHER, 'select * from public.create_user_if_not_exists($1, null)', [
        OTHER,
      ]);
      const { rows } = await db.pool.query(
        'select nonce from public.sign_in_nonces where wallet_address = $1',
        [OTHER],
      );
      expect(rows).toContainEqual({ nonce: issued.nonce });
    });

    test('refuses a nonce chosen by the client (22023)', async () => {
      await expect(
        callAfterSigning(PLAYER, 'select * from public.create_user_if_not_exists($1, $2)', [
          PLAYER,
          'chosen',
        ]),
      ).rejects.toMatchObject({ code: '22023' });
    });

    test.each([['0x1234'], ['hello'], [`0x${'g'.repeat(40)}`], [` ${PLAYER}`], [null]])(
      'refuses the malformed address %p (22023)',
      async (address) => {
        const refusal = {
          code: '22023',
          message: expect.stringMatching(/^invalid wallet address: /),
        };
        await expect(
          call('select * from public.create_user_if_not_exists($1)', [address]),
        ).rejects.toMatchObject(refusal);
        await expect(
          callAfterSigning(PLAYER, 'select * from public.create_user_if_not_exists($1, null)', [
            address,
          ]),
        ).rejects.toMatchObject(refusal);
      },
    );
  });

  describe('score plausibility', () => {
    test('refuses a score that detailed_stats do not earn (23514)', async () => {
      const honest = result({ character: 'Inflated' });
      await expect(
        saveAs(db, PLAYER, { ...honest, score: honest.score + 1 }),
      ).rejects.toMatchObject({
        code: '23514',
        message: `score ${honest.score + 1} does not match the ending score ${honest.score} computed from detailed_stats`,
      });
    });

    test.each([
      ['a breakdown value above 100', { breakdown: { decisions: 150 } }, /decisions must be/],
      ['a negative success rate', { successRate: -5 }, /playerStats\.successRate must be/],
      ['a morality out of range', { breakdown: { morality: 101 } }, /morality must be/],
    ])('refuses %s (23514)', async (_what, input, message) => {
      await expect(
        saveAs(db, PLAYER, result({ character: 'Out Of Range', ...input })),
      ).rejects.toMatchObject({ code: '23514', message: expect.stringMatching(message) });
    });

    test('refuses a component that is not a number, or missing (23514)', async () => {
      const honest = result({ character: 'Stringly' });
      const stats = honest.detailed_stats as { scoreBreakdown: Record<string, unknown> };
      for (const creativity of ['40', undefined]) {
        const detailedStats = {
          ...stats,
          scoreBreakdown: { ...stats.scoreBreakdown, creativity },
        };
        await expect(
          saveAs(db, PLAYER, { ...honest, detailed_stats: detailedStats }),
        ).rejects.toMatchObject({
          code: '23514',
          message: expect.stringMatching(/creativity must be a number from 0 to 100/),
        });
      }
    });

    test('refuses a turnCount in detailed_stats that differs from turn_count (23514)', async () => {
      const honest = result({ character: 'Miscounted' });
      await expect(
        saveAs(db, PLAYER, { ...honest, turn_count: honest.turn_count + 1 }),
      ).rejects.toMatchObject({ code: '23514', message: expect.stringMatching(/turnCount/) });
    });

    test('refuses detailed_stats larger than 16 KB (23514)', async () => {
      const honest = result({ character: 'Verbose' });
      const detailedStats = { ...honest.detailed_stats, moralChoices: Array(4000).fill('moral') };
      await expect(
        saveAs(db, PLAYER, { ...honest, detailed_stats: detailedStats }),
      ).rejects.toMatchObject({ code: '23514', constraint: 'game_results_detailed_stats_size' });
    });

    test('ending_score agrees with the engine on random endings', async () => {
      const half = fc.integer({ min: 0, max: 200 }).map((n) => n / 2);
      const cases = fc.sample(
        fc.record({
          scoreBreakdown: fc.record({
            decisions: half,
            consistency: half,
            creativity: half,
            morality: half,
          }),
          turnCount: fc.integer({ min: 1, max: 500 }),
          successRate: fc.integer({ min: 0, max: 100 }),
          endingType: fc.constantFrom(...ENDING_TYPES, '비극적인 몰락', 'Quiet Exile'),
        }),
        { numRuns: 300, seed: 20261122 },
      );
      const { rows } = await db.pool.query<{ score: number }>(
        `select public.ending_score(c.item -> 'stats', (c.item ->> 'turns')::int, c.item ->> 'ending') as score
         from jsonb_array_elements($1::jsonb) with ordinality as c(item, n)
         order by c.n`,
        [
          JSON.stringify(
            cases.map((ending) => ({
              stats: {
                scoreBreakdown: ending.scoreBreakdown,
                playerStats: { successRate: ending.successRate },
                turnCount: ending.turnCount,
              },
              turns: ending.turnCount,
              ending: ending.endingType,
            })),
          ),
        ],
      );
      expect(rows.map((row) => row.score)).toEqual(
        cases.map((ending) => endingScore(ending).score),
      );
    });

    test('ending_multiplier_tenths agrees with the engine for every ending name', async () => {
      const names = [
        ...ENDING_TYPES,
        ...ENDING_TYPES.map((name) => name.toUpperCase()),
        ...ENDING_TYPES.map((name) => `\u3000 ${name.toLowerCase().replace(' ', '\t\n ')} `),
        ...koreanEndingNames(),
        ...koreanEndingNames().map((name) => ` ${name.replace(' ', '\u00a0 ')}\n`),
        'Cosmic Stalemate',
        'heroic  victory!',
        'valueOf',
        '',
      ];
      const { rows } = await db.pool.query<{ tenths: number }>(
        `select public.ending_multiplier_tenths(name) as tenths
         from unnest($1::text[]) with ordinality as n(name, i)
         order by n.i`,
        [names],
      );
      const engineTenths = (endingType: string) =>
        Math.round(
          endingScore({
            scoreBreakdown: { decisions: 0, consistency: 0, creativity: 0, morality: 0 },
            turnCount: 30,
            successRate: 0,
            endingType,
          }).multiplier * 10,
        );
      expect(names.map((name, i) => [name, rows[i]?.tenths])).toEqual(
        names.map((name) => [name, engineTenths(name)]),
      );
    });
  });

  describe('the duplicate rule (SPEC.md section 5)', () => {
    test('refuses the same result within 24 hours (23505), allows it after', async () => {
      const row = result({ character: 'Twice Told' });
      const id = await saveAs(db, PLAYER, row);
      await expect(saveAs(db, PLAYER, row)).rejects.toMatchObject({
        code: '23505',
        message: 'This result has already been saved recently.',
      });
      await db.pool.query(
        `update public.game_results set created_at = now() - interval '25 hours' where id = $1`,
        [id],
      );
      await expect(saveAs(db, PLAYER, row)).resolves.toEqual(expect.any(String));
    });

    test('counts a different score, character or ending as a different result', async () => {
      const row = result({ character: 'Variations' });
      await saveAs(db, PLAYER, row);
      await saveAs(db, PLAYER, result({ character: 'Variations', successRate: 100 }));
      await saveAs(db, PLAYER, result({ character: 'Variations II' }));
      await saveAs(db, PLAYER, result({ character: 'Variations', ending: 'Quiet Exile' }));
      const { rows } = await db.pool.query(
        `select count(*)::int as saved from public.game_results where character_name like 'Variations%'`,
      );
      expect(rows).toEqual([{ saved: 4 }]);
    });

    test('of two identical results saved at the same time, exactly one is kept', async () => {
      const row = result({ character: 'Racer' });
      let outcomes: PromiseSettledResult<unknown>[];
      if (db.kind === 'postgres') {
        // Hold the first transaction open until the second is waiting on the advisory lock.
        let inserted!: () => void;
        let mayCommit!: () => void;
        const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
        const commitFirst = new Promise<void>((resolve) => (mayCommit = resolve));
        const first = withClaims(db, asPlayer(PLAYER), async (client) => {
          await insertResult(client, row);
          inserted();
          await commitFirst;
        });
        await firstInserted;
        const second = saveAs(db, PLAYER, row);
        await waitForLockWaiter(db);
        mayCommit();
        outcomes = await Promise.allSettled([first, second]);
      } else {
        // PGlite is a single connection: the pool queues the second transaction.
        outcomes = await Promise.allSettled([saveAs(db, PLAYER, row), saveAs(db, PLAYER, row)]);
      }
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
        reason: { code: '23505' },
      });
      const { rows } = await db.pool.query(
        `select count(*)::int as saved from public.game_results where character_name = 'Racer'`,
      );
      expect(rows).toEqual([{ saved: 1 }]);
    });
  });
});

describe("PGlite's request queue", () => {
  test(
    'is bounded: beyond MAX_QUEUED_REQUESTS waiting, a request is refused at once',
    async () => {
      const db = await openEmptyPglite();
      await migrate(db);
      try {
        // One request holds the connection until let go; the queue fills up behind it.
        let letGo = () => {};
        let held = () => {};
        const holdingStarted = new Promise<void>((resolve) => (held = resolve));
        const holding = withClaims(db, ANON, () => {
          held();
          return new Promise<void>((resolve) => (letGo = resolve));
        });
        await holdingStarted;
        const waiting = Array.from({ length: MAX_QUEUED_REQUESTS }, () =>
          withClaims(db, ANON, async (client) => (await client.query('select 1 as one')).rows),
        );
        await expect(withClaims(db, ANON, async () => 'never')).rejects.toBeInstanceOf(
          DatabaseBusyError,
        );
        letGo();
        await holding;
        const answers = await Promise.all(waiting);
        expect(answers).toHaveLength(MAX_QUEUED_REQUESTS);
        expect(answers.every((rows) => rows[0]?.one === 1)).toBe(true);
      } finally {
        await db.close();
      }
    },
    DATABASE_START_TIMEOUT_MS,
  );
});

describe('the PGlite data directory lock', () => {
  let dataDir: string;

  beforeAll(() => {
    assertPgliteCanLoad();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-db-'));
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, STOP_TIMEOUT_MS);

  test(
    'an on-disk database takes the directory lock, and close releases it',
    async () => {
      const lockFile = path.join(dataDir, 'pglite.lock');
      const db = await openDatabase({ dataDir });
      try {
        expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
        await expect(openDatabase({ dataDir })).rejects.toThrow('is already open in this server');
      } finally {
        await db.close();
      }
      expect(fs.existsSync(lockFile)).toBe(false);
      // Creating an on-disk cluster took over 5 s on a busy two-core machine.
    },
    DATABASE_START_TIMEOUT_MS,
  );
});

/** The Korean ending names of score.ts's KOREAN_ENDING_TYPES map, read from its source. */
function koreanEndingNames(): string[] {
  const source = fs.readFileSync(path.resolve(__dirname, '../../src/engine/score.ts'), 'utf8');
  const map = /KOREAN_ENDING_TYPES = new Map[^(]*\(\[([\s\S]*?)\]\);/.exec(source)?.[1] ?? '';
  const names = [...map.matchAll(/\['([^']+)',/g)].map((match) => match[1]!);
  expect(names.length).toBeGreaterThanOrEqual(5);
  return names;
}

/** Resolves once some transaction waits on an advisory lock in this database. */
async function waitForLockWaiter(db: Database): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const { rows } = await db.pool.query<{ waiting: number }>(
      `select count(*)::int as waiting from pg_catalog.pg_locks
       where locktype = 'advisory' and not granted
         and database = (select oid from pg_catalog.pg_database where datname = current_database())`,
    );
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('The second insert never waited on the duplicate-rule lock');
}

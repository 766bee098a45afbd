/**
 * Fills game_results with many plausible results in one statement on the database itself, for
 * the leaderboard benchmark. Every row would pass the rules (the score is the one its own
 * detailed_stats earn, computed by the migration's ending_score; character names are distinct,
 * so no duplicates; every wallet is a player), but the per-row triggers are skipped
 * (session_replication_role = replica, a superuser setting): the duplicate rule's advisory lock
 * per row would exhaust the lock table in a single million-row transaction, and checking a
 * score the statement itself computed adds nothing.
 */
import type { Pool, PoolClient } from 'pg';

/** How many different wallets and stat combinations the rows are spread over. */
const WALLETS = 1000;
const COMBINATIONS = 1000;
const GENRES = [
  'High Fantasy',
  'Cyberpunk Noir',
  'Space Opera',
  'Gothic Horror',
  'Post-Apocalyptic Survival',
  'Steampunk Mystery',
  'Pirate Adventure',
  'Mythic Odyssey',
];
const ENDINGS = [
  'Heroic Victory',
  'Pyrrhic Victory',
  'Antihero Triumph',
  'Tragic Downfall',
  'Bittersweet Resolution',
];

const walletOf = (n: string) => `'0x' || pg_catalog.lpad(pg_catalog.to_hex(${n}), 40, '0')`;

/**
 * Adds `count` results (and the wallets they belong to) to the database's game_results, then
 * vacuums, analyzes and checkpoints. Needs a superuser connection.
 */
export async function seedResults(pool: Pool, count: number): Promise<void> {
  // One connection throughout: the transaction and its settings belong to it.
  const db = await pool.connect();
  try {
    await seed(db, count);
  } finally {
    db.release();
  }
}

async function seed(db: PoolClient, count: number): Promise<void> {
  await db.query('begin');
  try {
    await db.query('set local session_replication_role = replica');
    // Indexes are built faster once over the whole table than row by row: each is dropped and
    // made again from its own definition, whatever the migrations make it.
    const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_catalog.pg_indexes
       where schemaname = 'public' and tablename in ('game_results', 'leaderboard_entries')
         and not exists (
           select 1 from pg_catalog.pg_constraint
           where conindid = pg_catalog.to_regclass(schemaname || '.' || indexname)
         )`,
    );
    for (const index of indexes) await db.query(`drop index public."${index.indexname}"`);
    await db.query(
      `insert into public.users (wallet_address)
       select ${walletOf('w')} from pg_catalog.generate_series(1, ${WALLETS}) as w
       on conflict do nothing`,
    );
    await db.query(
      `with combination as (
         select c as n,
                7 + c % 40 as turns,
                ($1::text[])[1 + c % ${ENDINGS.length}] as ending,
                pg_catalog.jsonb_build_object(
                  'scoreBreakdown', pg_catalog.jsonb_build_object(
                    'decisions', 30 + c % 70, 'consistency', 20 + (c / 3) % 80,
                    'creativity', 10 + (c / 7) % 90, 'morality', (c / 11) % 101),
                  'playerStats', pg_catalog.jsonb_build_object(
                    'moralScore', (c / 13) % 101, 'riskScore', (c / 17) % 101,
                    'traitConsistency', (c / 19) % 101, 'creativity', (c / 23) % 101,
                    'successRate', c % 101),
                  'turnCount', 7 + c % 40,
                  'moralChoices', pg_catalog.jsonb_build_array('moral', 'neutral', 'immoral'),
                  'successfulChoices', c % 7) as stats
         from pg_catalog.generate_series(0, ${COMBINATIONS - 1}) as c
       ), scored as materialized (
         -- Materialized: the score is computed once per combination, not once per row.
         select n, turns, ending, stats, public.ending_score(stats, turns, ending) as score
         from combination
       )
       insert into public.game_results
         (wallet_address, score, ending_type, character_name, genre, turn_count,
          detailed_stats, created_at)
       select ${walletOf(`1 + g % ${WALLETS}`)}, s.score, s.ending, 'Hero ' || g,
              ($2::text[])[1 + g % ${GENRES.length}], s.turns,
              s.stats || pg_catalog.jsonb_build_object('enhancedScore', s.score),
              pg_catalog.now() - pg_catalog.make_interval(secs => g % 2592000)
       from pg_catalog.generate_series(1, ${Math.floor(count)}) as g
       join scored as s on s.n = g % ${COMBINATIONS}`,
      [ENDINGS, GENRES],
    );
    // The leaderboard's rows, which the skipped trigger (publish_result_to_leaderboard,
    // migration 20261126120000_security_advisor.sql) would have written one by one.
    await db.query(
      `insert into public.leaderboard_entries
         (game_result_id, wallet_address, score, ending_type, character_name, created_at, genre,
          turn_count, rewrites)
       select id, wallet_address, score, ending_type, character_name, created_at, genre,
              turn_count, coalesce((detailed_stats -> 'rewrites')::numeric, 0)::integer
       from public.game_results
       on conflict (game_result_id) do nothing`,
    );
    for (const index of indexes) await db.query(index.indexdef);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback').catch(() => undefined);
    throw error;
  }
  // Settled, as a database that has held a million results for a while would be, rather than
  // still writing them out (checkpoint) and vacuuming them (autovacuum) while it is measured.
  await db.query('vacuum (analyze) public.users, public.game_results, public.leaderboard_entries');
  await db.query('checkpoint');
}

/**
 * The leaderboard benchmark's rows (scripts/bench/seedResults.ts) skip the per-row triggers, so
 * this checks that they would have passed them, and that the table is left as the migrations
 * made it.
 */
import { migrate, withClaims, type Database } from '../../server/db';
import { seedResults } from '../../scripts/bench/seedResults';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../server/support/databases';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const ROWS = 3000;

const indexes = async (db: Database) =>
  (
    await db.pool.query<{ indexdef: string }>(
      `select indexdef from pg_indexes
       where tablename in ('game_results', 'leaderboard_entries') order by indexname`,
    )
  ).rows.map((row) => row.indexdef);

describe.each(testBackends())('seeding results on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  let before: string[];

  beforeAll(async () => {
    ({ db, drop } = await open());
    await migrate(db);
    before = await indexes(db);
    await seedResults(db.pool, ROWS);
  }, DATABASE_START_TIMEOUT_MS);

  afterAll(async () => {
    await drop?.();
  }, STOP_TIMEOUT_MS);

  test('adds the rows, each score the one its detailed_stats earn, every name its own', async () => {
    const { rows } = await db.pool.query<Record<string, string>>(
      `select count(*) as rows,
              count(distinct character_name) as names,
              count(*) filter (
                where score <> public.ending_score(detailed_stats, turn_count, ending_type)
              ) as implausible,
              count(*) filter (
                where not exists (
                  select 1 from public.users where users.wallet_address = game_results.wallet_address
                )
              ) as without_player
       from public.game_results`,
    );
    expect(rows[0]).toEqual({
      rows: String(ROWS),
      names: String(ROWS),
      implausible: '0',
      without_player: '0',
    });
  });

  test('puts every seeded result on the leaderboard, as the trigger would', async () => {
    const { rows } = await db.pool.query<Record<string, string>>(
      `select count(*) as entries,
              count(*) filter (
                where (entry.score, entry.character_name, entry.turn_count, entry.created_at)
                  is distinct from (result.score, result.character_name, result.turn_count,
                                    result.created_at)
              ) as different
       from public.leaderboard_entries as entry
       join public.game_results as result on result.id = entry.game_result_id`,
    );
    expect(rows[0]).toEqual({ entries: String(ROWS), different: '0' });
  });

  test('a seeded result passes the triggers when its owner saves it', async () => {
    const { rows } = await db.pool.query(
      `select wallet_address, score, ending_type, genre, turn_count, detailed_stats
       from public.game_results order by id desc limit 1`,
    );
    const row = rows[0] as Record<string, unknown>;
    const inserted = await withClaims(
      db,
      { role: 'authenticated', wallet_address: row.wallet_address },
      (client) =>
        client.query(
          `insert into public.game_results
             (wallet_address, score, ending_type, character_name, genre, turn_count,
              detailed_stats)
           values ($1, $2, $3, 'Saved again', $4, $5, $6)`,
          [
            row.wallet_address,
            row.score,
            row.ending_type,
            row.genre,
            row.turn_count,
            JSON.stringify(row.detailed_stats),
          ],
        ),
    );
    expect(inserted.rowCount).toBe(1);
  });

  test('leaves the indexes as the migrations made them, and the triggers on', async () => {
    expect(await indexes(db)).toEqual(before);
    const { rows } = await db.pool.query<{ role: string }>(
      "select current_setting('session_replication_role') as role",
    );
    expect(rows[0]?.role).toBe('origin');
  });
});

/**
 * The database behind the local server (DESIGN.md, "The pieces"): embedded PGlite by default,
 * PostgreSQL when DATABASE_URL is given, both through the `pg` API so there is one data path.
 * The migrations in supabase/migrations are the single source of truth for tables, rules and
 * access; requests run under their token's role and claims the way PostgREST runs them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Pool, type PoolClient } from 'pg';
import { takeDataDirLock, type DataDirLock } from './dataDirLock';
import { makePrivateDataDir } from './privateDataDir';

/** The embedded database's queue is full; the request may be tried again shortly. */
export class DatabaseBusyError extends Error {
  constructor() {
    super('The database is busy; try again in a moment');
    this.name = 'DatabaseBusyError';
  }
}

export interface Database {
  pool: Pool;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** The claims of a request's token; `role` is the database role PostgREST would switch to. */
export interface RequestClaims {
  role: 'anon' | 'authenticated' | 'service_role';
  [claim: string]: unknown;
}

const projectRoot = path.resolve(__dirname, '..');
const SHIM_FILE = path.join(projectRoot, 'server', 'supabaseShim.sql');
const MIGRATIONS_DIR = path.join(projectRoot, 'supabase', 'migrations');
const MIGRATION_FILE = /^(\d+)_(\w+)\.sql$/;
const REQUEST_ROLES: ReadonlySet<string> = new Set(['anon', 'authenticated', 'service_role']);
/**
 * How many requests may wait for PGlite's one connection. Beyond that a request is refused at
 * once (DatabaseBusyError, 503) rather than left to wait longer than any client would.
 */
export const MAX_QUEUED_REQUESTS = 500;
/** Serialises migrate() across servers sharing one PostgreSQL database. */
const MIGRATE_LOCK_KEY = 7_346_112_505;

/**
 * PGlite persisted under `${dataDir}/pglite` unless databaseUrl is given (then PostgreSQL).
 * `dataDir: null` (or 'memory://...') gives an in-memory PGlite, for tests. An on-disk PGlite
 * takes the directory's lock first (server/dataDirLock.ts).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  /**
   * In memory only: a PGlite data directory (dumpDataDir) to start from instead of creating a
   * new cluster, which takes seconds of CPU. Tests start from a dump of an empty one.
   */
  startFrom?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dataDir = options.dataDir;
  if (dataDir === null || dataDir.startsWith('memory://')) {
    return openPglite(null, null, options.startFrom);
  }

  // Private before anything is read or written in it: it holds every player's results and the
  // server's keys.
  makePrivateDataDir(dataDir);
  const lock = await takeDataDirLock(dataDir);
  try {
    return await openPglite(path.join(dataDir, 'pglite'), lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openPostgres(databaseUrl: string): Promise<Database> {
  const pool = new Pool({ connectionString: databaseUrl });
  // An idle client losing its connection must not crash the server; the next query reconnects.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot connect to PostgreSQL at ${redactPassword(databaseUrl)}: ${reason}`, {
      cause: error,
    });
  }
  return { pool, kind: 'postgres', close: () => pool.end() };
}

async function openPglite(
  directory: string | null,
  lock: DataDirLock | null,
  startFrom?: Blob,
): Promise<Database> {
  const pglite =
    directory === null ? new PGlite({ loadDataDir: startFrom }) : new PGlite(directory);
  await pglite.waitReady;
  // PGlite is one connection: a pool of one makes every caller wait its turn.
  const pool = new Pool({ ...createPgConfig(pglite), max: 1 });
  return {
    pool,
    kind: 'pglite',
    async close() {
      try {
        await pool.end();
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

function redactPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(an unparseable DATABASE_URL)';
  }
}

/**
 * Applies server/supabaseShim.sql (what hosted Supabase already has), then every migration in
 * supabase/migrations not applied yet, in name order, each in its own transaction. Applied
 * migrations are recorded in supabase_migrations.schema_migrations, the table the Supabase CLI
 * keeps, with the same columns. Returns the file names applied this time.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  for (const name of files) {
    if (!MIGRATION_FILE.test(name)) {
      throw new Error(`Migration file names are <timestamp>_<name>.sql; got ${name}`);
    }
  }

  const client = await db.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]);
    try {
      await inTransaction(client, async () => {
        await client.query(fs.readFileSync(SHIM_FILE, 'utf8'));
        await client.query(`
          create schema if not exists supabase_migrations;
          create table if not exists supabase_migrations.schema_migrations (
            version text primary key,
            statements text[],
            name text
          )`);
      });
      const { rows } = await client.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations',
      );
      const applied = new Set(rows.map((row) => row.version));
      const appliedNow: string[] = [];
      for (const file of files) {
        const [, version = '', name = ''] = MIGRATION_FILE.exec(file) ?? [];
        if (applied.has(version)) continue;
        const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
        await inTransaction(client, async () => {
          try {
            await client.query(sql);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new Error(`Migration ${file} failed: ${reason}`, { cause: error });
          }
          await client.query(
            'insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)',
            [version, [sql], name],
          );
        });
        appliedNow.push(file);
      }
      return appliedNow;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATE_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

async function inTransaction<T>(client: PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await fn();
    await client.query('commit');
    return result;
  } catch (error) {
    // A failed rollback means the connection itself is gone; the original error says why.
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * Settings a request's transaction carries besides its claims, as PostgREST sets them: the
 * request's headers (`request.headers`, as the gateway forwards them: server/gateway.ts), and
 * the server's own sign-in limit (`taleweaver.sign_in_rate_limit`, read by the migrations'
 * public.sign_in_rate_limit()).
 */
export type RequestSettings = Readonly<Record<string, string>>;

/**
 * Runs fn in one transaction under the token's role and claims, as PostgREST does, so the
 * migrations' row-level security decides what it may read and write. Commits when fn resolves,
 * rolls back and rethrows when it throws. fn must use the client it is given: on PGlite the
 * pool has a single connection, which fn holds until it returns.
 */
export async function withClaims<T>(
  db: Database,
  claims: RequestClaims,
  fn: (client: PoolClient) => Promise<T>,
  settings: RequestSettings = {},
): Promise<T> {
  if (!REQUEST_ROLES.has(claims.role)) {
    throw new Error(
      `A request runs as anon, authenticated or service_role, not as '${String(claims.role)}'`,
    );
  }
  if (db.kind === 'pglite' && db.pool.waitingCount >= MAX_QUEUED_REQUESTS) {
    throw new DatabaseBusyError();
  }
  const client = await db.pool.connect();
  // PGlite runs each query on this thread, and the pool hands its one connection straight to
  // the next waiter without returning to the event loop: a queue of writes would run back to
  // back while new connections wait to be accepted. Each transaction starts on a fresh turn of
  // the event loop instead, so requests keep being accepted and answered in between.
  if (db.kind === 'pglite') await new Promise((resolve) => setImmediate(resolve));
  try {
    return await inTransaction(client, async () => {
      // One round trip for all of them, names and values bound as parameters.
      const pairs: [string, string][] = [
        ['role', claims.role],
        ['request.jwt.claims', JSON.stringify(claims)],
        ...Object.entries(settings),
      ];
      await client.query(
        `select ${pairs.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
        pairs.flat(),
      );
      return fn(client);
    });
  } finally {
    client.release();
  }
}

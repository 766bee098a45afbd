/**
 * The databases server tests run against (DESIGN.md, "Tests"): an in-memory PGlite always,
 * and PostgreSQL when one is configured or found. Each PostgreSQL run gets a fresh database,
 * dropped afterwards, so runs never see each other's rows.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../../server/db';

export interface TestBackend {
  name: string;
  /** Opens a fresh, empty database (not yet migrated); drop() closes and removes it. */
  open(): Promise<{ db: Database; drop(): Promise<void> }>;
}

const LOCAL_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * PGlite loads Node's built-ins with import(), which jest's sandbox refuses unless node runs
 * with --experimental-vm-modules (electric-sql/pglite#224), as the npm test scripts do. Without
 * it PGlite's rejection is unhandled and takes the whole jest run down, so say so first.
 */
export function assertPgliteCanLoad(): void {
  if (process.env.JEST_WORKER_ID !== undefined && typeof vm.SourceTextModule !== 'function') {
    throw new Error(
      'PGlite under jest needs node --experimental-vm-modules: run the npm test scripts, or ' +
        'NODE_OPTIONS=--experimental-vm-modules npx jest ...',
    );
  }
}

/**
 * A dump of a new, empty PGlite cluster, made once per PGlite version on this machine and kept
 * in the temporary directory: creating a cluster costs about 6 s of CPU, loading the dump about
 * 1 s. What a test then opens is the same empty, unmigrated database. Read once per test file.
 */
let emptyClusterRead: Promise<Blob> | undefined;
function emptyCluster(): Promise<Blob> {
  emptyClusterRead ??= readOrMakeEmptyCluster();
  return emptyClusterRead;
}

async function readOrMakeEmptyCluster(): Promise<Blob> {
  const version = (
    JSON.parse(
      fs.readFileSync(
        require.resolve('@electric-sql/pglite').replace(/dist\/.*$/, 'package.json'),
        'utf8',
      ),
    ) as { version: string }
  ).version;
  const file = path.join(os.tmpdir(), `taleweaver-pglite-empty-cluster-${version}.tar`);
  if (!fs.existsSync(file)) {
    const fresh = new PGlite();
    await fresh.waitReady;
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    // Written aside, then renamed: another worker never reads half a dump.
    const draft = `${file}.${process.pid}.draft`;
    fs.writeFileSync(draft, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(draft, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

/** A new in-memory PGlite database, empty and unmigrated, loaded from the kept empty cluster. */
export async function openEmptyPglite(): Promise<Database> {
  assertPgliteCanLoad();
  return openDatabase({ dataDir: null, startFrom: await emptyCluster() });
}

const pglite: TestBackend = {
  name: 'PGlite',
  async open() {
    const db = await openEmptyPglite();
    return { db, drop: () => db.close() };
  },
};

/** A new, empty PostgreSQL database made through the administrative URL; drop() removes it. */
export async function freshPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `taleweaver_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient(adminUrl, (admin) =>
        admin.query(`drop database if exists ${name} with (force)`),
      ).then(() => undefined),
  };
}

function postgres(adminUrl: string): TestBackend {
  return {
    name: 'PostgreSQL',
    async open() {
      const database = await freshPostgresDatabase(adminUrl);
      const db = await openDatabase({ databaseUrl: database.url, dataDir: null });
      return {
        db,
        async drop() {
          await db.close();
          await database.drop();
        },
      };
    },
  };
}

async function withAdminClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    const where = new URL(url);
    where.password = where.password && '***';
    throw new Error(`PostgreSQL at ${where} is required for this run but unreachable`, {
      cause: error,
    });
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Whether a PostgreSQL answers at url. Jest collects tests synchronously, so the probe runs in
 * a child process and this waits for it.
 */
function isReachable(url: string): boolean {
  const probe = `
    const { Client } = require('pg');
    const client = new Client({ connectionString: process.env.PROBE_URL, connectionTimeoutMillis: 2000 });
    client.connect().then(() => client.query('select 1')).then(() => client.end())
      .then(() => process.exit(0), () => process.exit(1));`;
  try {
    execFileSync(process.execPath, ['-e', probe], {
      cwd: path.resolve(__dirname, '../../..'),
      env: { ...process.env, PROBE_URL: url },
      stdio: 'ignore',
      timeout: 5000,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * PGlite, plus PostgreSQL when TEST_POSTGRES_URL or DATABASE_URL names one or CI is set (then an
 * unreachable server fails every PostgreSQL test rather than being skipped), or else when the
 * local server at 127.0.0.1:5432 answers. The URL is an administrative connection: each run
 * creates its own database through it.
 */
export function testBackends(env: NodeJS.ProcessEnv = process.env): TestBackend[] {
  const adminUrl = postgresAdminUrl(env);
  return adminUrl ? [pglite, postgres(adminUrl)] : [pglite];
}

/** The PostgreSQL tests run against (by the rule above), or null when there is none. */
export function postgresAdminUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.TEST_POSTGRES_URL || env.DATABASE_URL;
  const adminUrl = configured || LOCAL_POSTGRES_URL;
  const required = Boolean(configured || env.CI);
  return required || isReachable(adminUrl) ? adminUrl : null;
}

/**
 * How long a suite's beforeAll may take to start an embedded database (and a server on it); kept
 * with the other limits in test/support/timeouts.ts, and exported here too for the suites that
 * take it from here.
 */
export { DATABASE_START_TIMEOUT_MS } from '../../support/timeouts';

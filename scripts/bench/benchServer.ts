/**
 * What the server benchmarks (budgets 7 and 8) share: the real server started as its own
 * process (test/e2e/support/server.ts), a fresh PostgreSQL database per run, a static site to
 * compare against, and autocannon's figures in the units the report uses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freshPostgresDatabase, postgresAdminUrl } from '../../test/server/support/databases';
import { ms } from './budget';

/** The leaderboard request the app sends (src/features/leaderboard/leaderboardApi.ts). */
export const LEADERBOARD_PATH = '/rest/v1/leaderboard?select=*&order=score.desc&limit=20';

/** A fresh PostgreSQL database, dropped by drop(); fails with the reason when there is none. */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    throw new Error(
      'PostgreSQL is needed (TEST_POSTGRES_URL, DATABASE_URL, or one at 127.0.0.1:5432)',
    );
  }
  return freshPostgresDatabase(adminUrl);
}

export interface StaticSite {
  /** A DIST_DIR for the server: index.html and a 2 KB JSON document. */
  dir: string;
  /** The JSON document's path on the server. */
  jsonPath: string;
  remove(): void;
}

/** Exactly 2 KB of JSON (leaderboard-like rows) beside an index.html, in a directory of its own. */
export function staticSite(): StaticSite {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-bench-site-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>bench</title>');
  const rows = Array.from({ length: 12 }, (_, i) => ({
    character_name: `Hero ${i + 1}`,
    score: 400 - i,
    genre: 'High Fantasy',
    turn_count: 12,
  }));
  const padding = 2048 - Buffer.byteLength(JSON.stringify({ rows, padding: '' }));
  const json = JSON.stringify({ rows, padding: 'x'.repeat(padding) });
  if (Buffer.byteLength(json) !== 2048) throw new Error(`The static JSON is ${json.length} bytes`);
  fs.writeFileSync(path.join(dir, 'static-2kb.json'), json);
  return {
    dir,
    jsonPath: '/static-2kb.json',
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** Connection errors, timeouts and non-2xx answers. */
  failed: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sets up each connection (its own headers, a new body after each answer, ...). */
  setupClient?: (client: autocannon.Client) => void;
}

/**
 * `connections` keep-alive connections, each sending its next request as soon as the last is
 * answered, for `seconds`. autocannon rather than fetch: it costs the two cores a quarter of
 * the CPU per request, which is left to the server being measured.
 */
export async function hammer(url: string, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.setupClient && { setupClient: options.setupClient }),
  });
  return {
    perSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    ok: result['2xx'],
    failed: result.errors + result.non2xx,
  };
}

export const describeLoad = (load: LoadResult) =>
  `${Math.round(load.perSecond)}/s, p50 ${ms(load.p50)}, p99 ${ms(load.p99)}, ` +
  `${load.requests} requests, ${load.failed} failed`;

/** Seconds since `start` (a performance.now()), for the report. */
export const secondsSince = (start: number) =>
  `${((performance.now() - start) / 1000).toFixed(1)} s`;

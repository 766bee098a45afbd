/**
 * Fault: PGlite stalled under load. 200 leaderboard readers and 20 result writers for 30 s
 * against the real server on its embedded database: new requests waited 10-29 s and writes
 * timed out, where PostgreSQL served the same load with p99 about 0.4 s. Must hold on PGlite:
 * p99 at most 1 s for reads and for writes (reported, not asserted: it depends on the machine),
 * no failures or timeouts, no acknowledged row lost or doubled (asserted).
 */
import http from 'node:http';
import { startServer, type RunningServer } from '../e2e/support/server';
import { count, ms, recordFinding } from './support/findings';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api';
import { runLoad } from './support/load';
import { saveResult, savedCharacters, signedInPlayer } from './support/players';
import { APP_START_TIMEOUT_MS } from '../support/timeouts';

const READERS = 200;
const WRITERS = 20;
const DURATION_MS = Number(process.env.RELIABILITY_LOAD_MS ?? 20_000);
const P99_BUDGET_MS = 1000;
/** A request still unanswered after this long counts as timed out. */
const TIMEOUT_MS = 10_000;
/** The leaderboard request the app sends (src/features/leaderboard/leaderboardApi.ts). */
const LEADERBOARD = '/rest/v1/leaderboard?select=*&order=score.desc&limit=20';

// The test starts the server itself (up to its 120 s start-up on a busy machine), then loads it.
jest.setTimeout(DURATION_MS + APP_START_TIMEOUT_MS);

let server: RunningServer;
afterAll(() => server?.stop());

test('200 readers and 20 writers for 30 s on PGlite: nothing fails or is lost; p99 measured', async () => {
  server = await startServer({ SERVE_APP: 'false', SIGN_IN_RATE_LIMIT: '1000' });
  const writers = await Promise.all(
    Array.from({ length: WRITERS }, async () => ({
      ...(await signedInPlayer(server.url)),
      acknowledged: [] as string[],
    })),
  );
  let sequence = 0;

  const figures = await runLoad(
    [
      {
        name: 'read',
        clients: READERS,
        ok: (status) => status === 200,
        // Each read on a new connection, as the report measured it: a player's first request.
        send: (_client, signal) =>
          getOnNewConnection(
            `${server.url}${LEADERBOARD}`,
            { apikey: DEFAULT_PUBLISHABLE_KEY },
            signal,
          ),
      },
      {
        name: 'write',
        clients: WRITERS,
        ok: (status) => status === 201,
        send: async (client, signal) => {
          const writer = writers[client]!;
          const character = `Load ${(sequence += 1)}`;
          const status = await saveResult(server.url, writer, character, signal);
          if (status === 201) writer.acknowledged.push(character);
          return status;
        },
      },
    ],
    { durationMs: DURATION_MS, timeoutMs: TIMEOUT_MS },
  );

  // Every acknowledged write is there exactly once (read back as each writer, after the load).
  let lost = 0;
  let doubled = 0;
  for (const writer of writers) {
    const saved = await savedCharacters(server.url, writer);
    const savedSet = new Set(saved);
    doubled += saved.length - savedSet.size;
    lost += writer.acknowledged.filter((character) => !savedSet.has(character)).length;
  }

  const read = figures.read!;
  const write = figures.write!;
  const held = recordFinding({
    fault: 'load',
    check: `${READERS} readers and ${WRITERS} writers for ${DURATION_MS / 1000} s on PGlite`,
    figures: {
      'reads (per second)': `${count(read.requests)} (${Math.round(read.perSecond)}/s)`,
      'read p50 / p99 / max': `${ms(read.p50)} / ${ms(read.p99)} / ${ms(read.max)}`,
      'writes (per second)': `${count(write.requests)} (${Math.round(write.perSecond)}/s)`,
      'write p50 / p99 / max': `${ms(write.p50)} / ${ms(write.p99)} / ${ms(write.max)}`,
      [`timeouts (over ${TIMEOUT_MS / 1000} s)`]: count(read.timeouts + write.timeouts),
      'other failures': JSON.stringify({ ...read.failures, ...write.failures }),
      'acknowledged rows lost': count(lost),
      'rows doubled': count(doubled),
    },
    held:
      read.p99 <= P99_BUDGET_MS &&
      write.p99 <= P99_BUDGET_MS &&
      read.failed + write.failed === 0 &&
      lost === 0 &&
      doubled === 0,
  });
  // What must never happen, however busy the machine: a request failing or timing out, a row
  // lost or doubled. The p99 budget is a measurement of this machine: docs/RELIABILITY.md says
  // whether it held, and a slow or crowded machine does not fail the test run for it.
  expect({ readFailures: read.failures, writeFailures: write.failures }).toEqual({
    readFailures: {},
    writeFailures: {},
  });
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
  if (!held) {
    console.warn(
      `PGlite under load missed its p99 budget of ${P99_BUDGET_MS} ms on this machine: ` +
        `reads ${ms(read.p99)}, writes ${ms(write.p99)} (see docs/RELIABILITY.md)`,
    );
  }
});

/** A GET on a connection of its own (no keep-alive pool); resolves with the status. */
function getOnNewConnection(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers, signal }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', (error) =>
      reject(
        signal.aborted ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : error,
      ),
    );
  });
}

/**
 * Budget 8, result writes: 20 signed-in players saving results at once, each as soon as the
 * last was answered, for 30 s against the real server on PostgreSQL: no errors, p99 at most
 * 100 ms. Each save has its own character name, so the duplicate rule never refuses one, and
 * afterwards every acknowledged save is in the table.
 */
import { Wallet } from 'ethers';
import { openDatabase } from '../../server/db';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api';
import { createBackend } from '../../src/api/supabaseBackend';
import { startServer, type RunningServer } from '../../test/e2e/support/server';
import { plausibleResult } from '../../test/server/support/results';
import { signIn } from '../../test/server/support/testServer';
import { benchDatabase, hammer } from './benchServer';
import { ms, type Benchmark } from './budget';

const WRITERS = 20;
const SECONDS = 30;
const P99_LIMIT_MS = 100;

async function savedRows(databaseUrl: string): Promise<number> {
  const db = await openDatabase({ databaseUrl, dataDir: null });
  try {
    const { rows } = await db.pool.query<{ count: string }>(
      'select count(*) from public.game_results',
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await db.close();
  }
}

const benchmark: Benchmark = {
  name: 'resultWrites',
  async run() {
    const database = await benchDatabase();
    let server: RunningServer | undefined;
    try {
      server = await startServer({
        DATABASE_URL: database.url,
        SERVE_APP: 'false',
        // 20 sign-ins from one address are two requests each: above the default limit.
        SIGN_IN_RATE_LIMIT: '1000',
      });
      const { url } = server;
      const backend = createBackend({ url, publishableKey: DEFAULT_PUBLISHABLE_KEY });
      const writers = await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          const wallet = Wallet.createRandom();
          return {
            address: wallet.address.toLowerCase(),
            token: await signIn({ url, backend }, wallet),
          };
        }),
      );
      // Each connection is one player: their token, and a new character name for every save.
      let sequence = 0;
      let connections = 0;
      const figures = await hammer(`${url}/rest/v1/game_results`, {
        connections: WRITERS,
        seconds: SECONDS,
        method: 'POST',
        setupClient(client) {
          const writer = writers[connections++ % WRITERS]!;
          const save = () => {
            sequence += 1;
            return JSON.stringify({
              wallet_address: writer.address,
              ...plausibleResult({ character: `Bench hero ${sequence}` }),
            });
          };
          client.setHeadersAndBody(
            {
              apikey: DEFAULT_PUBLISHABLE_KEY,
              authorization: `Bearer ${writer.token}`,
              'content-type': 'application/json',
              prefer: 'return=minimal',
            },
            save(),
          );
          client.on('response', () => client.setBody(save()));
        },
      });
      const saved = await savedRows(database.url);
      const errors = figures.failed;
      return [
        {
          budget: '8. Result writes',
          limit: `${WRITERS} writers × ${SECONDS} s on PostgreSQL: 0 errors, p99 ≤ ${P99_LIMIT_MS} ms`,
          measured: `${errors} errors, p99 ${ms(figures.p99)}`,
          // Saves still on their way when the load stopped may be stored without an answer.
          pass:
            errors === 0 &&
            figures.p99 <= P99_LIMIT_MS &&
            saved >= figures.ok &&
            saved <= figures.ok + WRITERS,
          details: {
            saves: `${figures.requests} (${Math.round(figures.perSecond)}/s), ${figures.ok} acknowledged`,
            'latency p50 / p99 / max': `${ms(figures.p50)} / ${ms(figures.p99)} / ${ms(figures.max)}`,
            'errors (connection, timeout, non-2xx)': String(errors),
            'rows in game_results afterwards': `${saved} (acknowledged ${figures.ok}, at most ${WRITERS} more unanswered at the end)`,
          },
        },
      ];
    } finally {
      await server?.stop();
      await database.drop();
    }
  },
};

export default benchmark;

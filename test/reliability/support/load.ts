/**
 * A closed-loop load generator: each virtual client sends a request, waits for the answer, and
 * sends the next, for a fixed time. Each class of clients says how it sends (keep-alive or a new
 * connection each time); every request has a timeout and every latency is kept for percentiles.
 */
import { percentile } from '../../../scripts/bench/budget';

export interface LoadClass {
  name: string;
  clients: number;
  /** One request by client `client`; resolves with the HTTP status (throws if none came). */
  send(client: number, signal: AbortSignal): Promise<number>;
  /** The statuses that count as success. */
  ok: (status: number) => boolean;
}

export interface LoadFigures {
  requests: number;
  ok: number;
  failed: number;
  timeouts: number;
  /** Failed statuses or error messages, with how often each came. */
  failures: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
}

export async function runLoad(
  classes: LoadClass[],
  options: { durationMs: number; timeoutMs: number },
): Promise<Record<string, LoadFigures>> {
  const began = performance.now();
  const endsAt = began + options.durationMs;
  const results = await Promise.all(
    classes.map(async (loadClass) => {
      const latencies: number[] = [];
      const figures = { requests: 0, ok: 0, failed: 0, timeouts: 0 };
      const failures: Record<string, number> = {};
      const fail = (reason: string) => {
        figures.failed += 1;
        failures[reason] = (failures[reason] ?? 0) + 1;
      };
      const client = async (index: number) => {
        while (performance.now() < endsAt) {
          const sent = performance.now();
          figures.requests += 1;
          try {
            const status = await loadClass.send(index, AbortSignal.timeout(options.timeoutMs));
            latencies.push(performance.now() - sent);
            if (loadClass.ok(status)) figures.ok += 1;
            else fail(`HTTP ${status}`);
          } catch (error) {
            latencies.push(performance.now() - sent);
            if ((error as Error).name === 'TimeoutError') figures.timeouts += 1;
            fail((error as Error).name === 'TimeoutError' ? 'timeout' : String(error));
          }
        }
      };
      await Promise.all(Array.from({ length: loadClass.clients }, (_, i) => client(i)));
      latencies.sort((a, b) => a - b);
      const seconds = (performance.now() - began) / 1000;
      return [
        loadClass.name,
        {
          ...figures,
          failures,
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          max: latencies.at(-1) ?? Number.NaN,
          perSecond: figures.requests / seconds,
        },
      ] as const;
    }),
  );
  return Object.fromEntries(results);
}

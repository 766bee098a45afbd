/**
 * Reads every visitor gets the same answer to (the leaderboard), shared instead of asked of the
 * database once per request. On the embedded database every query waits its turn on one
 * connection, so hundreds of players opening the leaderboard at once would queue behind each
 * other and behind the writers; here they share one query.
 *
 * Freshness: any write through this server (a saved result, a renamed player) starts a new
 * generation, and a read never uses an answer from an older generation, so a player who has
 * just saved a result always sees it. An answer is also never older than MAX_AGE_MS, which
 * bounds how long a write this server did not see (another server on the same PostgreSQL,
 * SQL run by hand) can stay hidden.
 */
export const MAX_AGE_MS = 1000;
/** At most this many different queries are remembered; the oldest is forgotten first. */
export const MAX_ENTRIES = 64;

interface Entry<T> {
  generation: number;
  startedAt: number;
  answer: Promise<T>;
}

export class SharedReads<T> {
  #generation = 0;
  #entries = new Map<string, Entry<T>>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {}

  /** Called after every write this server completes. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  /**
   * The answer for `key`: the one being fetched or fetched since the last write and within
   * the maximum age, or a fresh `fetch()`. A failed fetch is not kept.
   */
  read(key: string, fetch: () => Promise<T>): Promise<T> {
    const entry = this.#entries.get(key);
    if (
      entry &&
      entry.generation === this.#generation &&
      this.now() - entry.startedAt <= this.maxAgeMs
    ) {
      return entry.answer;
    }
    const fresh: Entry<T> = {
      generation: this.#generation,
      startedAt: this.now(),
      answer: fetch(),
    };
    // Callers choose the key (limits, offsets, filters): the map must not grow with them.
    this.#entries.delete(key);
    this.#entries.set(key, fresh);
    if (this.#entries.size > MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    fresh.answer.catch(() => {
      if (this.#entries.get(key) === fresh) this.#entries.delete(key);
    });
    return fresh.answer;
  }
}

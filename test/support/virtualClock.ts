/**
 * A virtual clock for the saga context: time moves only when the flows wait on it (DESIGN.md,
 * "State and side effects": every wait goes through the context's clock, so a test owns time).
 *
 * A wait ends once the flows have gone as far as they can without it (every promise that could
 * settle at once has settled: the clock looks again only at the next turn of the event loop),
 * and the clock jumps to the time it was due. Waits end in the order they are due, so a 7 s
 * backoff, a 30 s key-check limit and two flows waiting side by side replay as the wall clock
 * would play them, in no wall time. A wait that is cancelled (its signal aborts) is forgotten.
 *
 * The clock cannot see work outside the process's microtasks (a request to a real server on
 * the loopback): a wait that races one is `held`, and time does not pass it by itself; the
 * test moves it on with `advance`.
 */
import type { Clock } from '../../src/shared/sagaContext';

export interface VirtualClock extends Clock {
  /** Every `sleep` asked of the clock, in ms, in the order asked (cancelled ones included). */
  readonly slept: number[];
  /**
   * Moves time on by `ms`, ending each wait due by then (held ones too), in order, and letting
   * the flows go as far as they can after each.
   */
  advance(ms: number): Promise<void>;
  /** How many waits have not ended yet (a cancelled one is not among them). */
  pending(): number;
}

export interface VirtualClockOptions {
  /** The time at the start, in ms since the epoch (0 unless the test needs a date). */
  start?: number;
  /** The waits that race work the clock cannot see: they end only when `advance` passes them. */
  held?: (ms: number) => boolean;
}

interface Timer {
  at: number;
  order: number;
  held: boolean;
  resolve: () => void;
}

/** The next turn of the event loop, after every settled promise has run on. */
const nextTurn = (run: () => void) => setImmediate(run);

export function virtualClock({
  start = 0,
  held = () => false,
}: VirtualClockOptions = {}): VirtualClock {
  let now = start;
  let order = 0;
  let timers: Timer[] = [];
  let looking = false;
  const slept: number[] = [];

  const earliest = () =>
    timers.reduce<Timer | undefined>(
      (first, timer) =>
        !first || timer.at < first.at || (timer.at === first.at && timer.order < first.order)
          ? timer
          : first,
      undefined,
    );
  const end = (timer: Timer) => {
    timers = timers.filter((other) => other !== timer);
    now = Math.max(now, timer.at);
    timer.resolve();
  };
  /** Ends the earliest wait, unless it is held, once the flows have gone quiet. */
  const look = () => {
    if (looking) return;
    looking = true;
    nextTurn(() => {
      looking = false;
      const next = earliest();
      if (!next || next.held) return;
      end(next);
      look();
    });
  };
  const timer = (ms: number, isHeld: boolean, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return;
      const waiting: Timer = { at: now + Math.max(0, ms), order: order++, held: isHeld, resolve };
      timers.push(waiting);
      signal?.addEventListener(
        'abort',
        () => {
          timers = timers.filter((other) => other !== waiting);
        },
        { once: true },
      );
      look();
    });

  return {
    now: () => now,
    sleep(ms, signal) {
      slept.push(ms);
      return timer(ms, held(ms), signal);
    },
    // A page that paints at once: a frame waits only for the time it was asked not to come before.
    nextFrame: (notBeforeMs = 0) =>
      notBeforeMs > 0 ? timer(notBeforeMs, false) : Promise.resolve(),
    async advance(ms) {
      const until = now + ms;
      for (let next = earliest(); next && next.at <= until; next = earliest()) {
        end(next);
        await new Promise<void>((settled) => nextTurn(settled));
      }
      now = until;
      look();
    },
    pending: () => timers.length,
    slept,
  };
}

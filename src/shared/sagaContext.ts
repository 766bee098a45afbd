/**
 * What every feature's part of the saga context is made of (DESIGN.md, where side effects live).
 * Each feature declares its part beside its sagas (the game's `GameContext`, the saved stories'
 * `StoriesContext`, ...) and reads it with its own `fromContext`, made here by `contextReader`;
 * the app puts the parts together as `SagaContext` and fills it (src/app/sagaContext.ts), and a
 * test hands in its own (`makeStore({ context })`, or `expectSaga(...).provide({ getContext })`).
 * A flow never reads the context with a bare string key.
 */
import { getContext } from 'typed-redux-saga';

/**
 * Time as the flows see it: the wall clock, the next frame the page paints, and every wait a
 * flow takes (the 429 backoff, the key check's time limit, a notice's stay, the wallet's
 * once-a-second check). A test that hands in a virtual clock owns all of them: a stated 7 s
 * wait passes in no wall time.
 */
export interface Clock {
  now(): number;
  /**
   * Resolves `ms` from now. A wait whose `signal` aborts (a race it lost, a flow stopped) never
   * resolves, and holds no timer: flows wait through `wait` (src/shared/waits.ts), which aborts
   * it when the saga is cancelled.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves at the next animation frame (streamed text reaches the store at most once per
   * frame), or at the first frame `notBeforeMs` from now.
   */
  nextFrame(notBeforeMs?: number): Promise<void>;
}

/** A frame's length where nothing paints (Node, a worker): the stream still comes in frames. */
const FRAME_MS = 16;
/** A hidden tab paints no frames: a frame waits at most this long there. */
const HIDDEN_FRAME_MS = 100;

/** The page's clock (Date.now, requestAnimationFrame); a plain timer where there is no page. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return;
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => clearTimeout(timer), { once: true });
    }),
  nextFrame: (notBeforeMs = 0) =>
    new Promise<void>((resolve) => {
      const frame = () => {
        if (typeof requestAnimationFrame !== 'function') {
          setTimeout(resolve, FRAME_MS);
          return;
        }
        const timer = setTimeout(resolve, HIDDEN_FRAME_MS);
        requestAnimationFrame(() => {
          clearTimeout(timer);
          resolve();
        });
      };
      if (notBeforeMs > 0) setTimeout(frame, notBeforeMs);
      else frame();
    }),
};

/** The part of the context that tells the time: every feature that waits reads it. */
export interface ClockContext {
  clock: Clock;
}

/**
 * A feature's reader of its part of the saga context, typed by its keys:
 * `export const fromContext = contextReader<GameContext & LlmContext>()`, then
 * `const clock = yield* fromContext('clock')`.
 */
export function contextReader<Context>() {
  return function* fromContext<K extends keyof Context & string>(key: K) {
    return yield* getContext<Context[K]>(key);
  };
}

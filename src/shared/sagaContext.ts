/**
 * Everything a saga gets from outside the store, in one typed saga context (DESIGN.md, where
 * side effects live): the browser app fills it in `src/index.tsx`, a test hands in its own
 * (`makeStore({ context })`, or `expectSaga(...).provide({ getContext })`). A flow reads it
 * with `fromContext`, never with a bare string key.
 */
import { getContext } from 'typed-redux-saga';
import type { BackendProvider } from '../api/backend';
import type { Rng } from '../engine/types';
import type { ConnectPage, ModelClient } from '../features/llm';
import type { StoriesDb, TabChannel } from '../features/stories';
import type { WalletEnvironment, WalletSessionAccessor } from '../features/wallet';

/** Time as the flows see it: the wall clock, and the next frame the page paints. */
export interface Clock {
  now(): number;
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

export interface SagaContext {
  /** The language-model provider's client (the one edge the tests fake). */
  model: ModelClient;
  /** The game's random source: every roll replays from a seeded one. */
  random: Rng;
  clock: Clock;
  /** Where the accepted API key is kept in this browser (DESIGN.md: never sent elsewhere). */
  storage: Storage | null;
  /** The page's Content-Security-Policy, for a Custom or Local provider's origin. */
  connectPage: ConnectPage | null;
  /** The wallet extension, the page's site and its storage. */
  walletEnvironment: WalletEnvironment;
  /** The verified wallet session when asked (the store fills it from the wallet slice). */
  walletSession: WalletSessionAccessor;
  /** The backend's clients, made on first use. */
  backend: BackendProvider;
  /** The saved stories' database and the other tabs' channel: the browser's own when absent. */
  openStoriesDb: (() => Promise<StoriesDb>) | undefined;
  openTabChannel: (() => TabChannel | null) | undefined;
}

/** One value of the saga context, typed by its key. */
export function* fromContext<K extends keyof SagaContext>(key: K) {
  return yield* getContext<SagaContext[K]>(key);
}

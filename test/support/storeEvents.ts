/**
 * Waiting on a store's events, never on a clock: a test names a fact of the state it waits
 * for, and is woken by the dispatch that makes it true. `store.subscribe` hears every action the
 * reducer gets, the flows' puts and RTK Query's answers too, so a fact that comes with an event
 * is seen at that event, and one that holds already is seen at once. A fact that never comes
 * fails the test after a generous safety timeout, with what was awaited in the message; nothing
 * here polls.
 */

/** What these waits need of a store: Redux's own subscription. */
export interface ObservableStore<S> {
  getState(): S;
  subscribe(listener: () => void): () => void;
}

/** Long enough for a real server on a loaded machine; a wait that passes it has failed. */
export const STORE_EVENT_TIMEOUT_MS = 20_000;

/**
 * Resolves with the first value `select` gives that is not null, undefined or false: checked
 * now, then after every dispatch. Rejects when `select` throws, or after `timeoutMs`, naming
 * `what` was awaited.
 */
export function whenSelected<S, T>(
  store: ObservableStore<S>,
  select: (state: S) => T | null | undefined | false,
  what: string,
  timeoutMs = STORE_EVENT_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      clearTimeout(timer);
      outcome();
    };
    const check = () => {
      if (settled) return;
      let value: T | null | undefined | false;
      try {
        value = select(store.getState());
      } catch (error) {
        settle(() => reject(error instanceof Error ? error : new Error(String(error))));
        return;
      }
      if (value !== null && value !== undefined && value !== false) settle(() => resolve(value));
    };
    const timer = setTimeout(
      () => settle(() => reject(new Error(`Gave up after ${timeoutMs} ms waiting until ${what}`))),
      timeoutMs,
    );
    // Heard after every dispatch from now on, and checked once now: no event falls between.
    const unsubscribe = store.subscribe(check);
    check();
  });
}

/**
 * Resolves with the state once `predicate` holds: checked now, then after every dispatch.
 * Rejects when it throws, or after `timeoutMs`, naming `what` was awaited.
 */
export function whenState<S>(
  store: ObservableStore<S>,
  predicate: (state: S) => boolean,
  what: string,
  timeoutMs = STORE_EVENT_TIMEOUT_MS,
): Promise<S> {
  return whenSelected(store, (state) => predicate(state) && state, what, timeoutMs);
}

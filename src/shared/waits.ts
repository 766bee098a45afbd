/**
 * Every wait a flow takes, on the saga context's clock (DESIGN.md, "State and side effects":
 * every wait goes through the context's clock, so a test owns time): the 429 backoff, the key
 * check's time limit, a notice's stay, the wallet's once-a-second check, a debounce.
 * redux-saga's own `delay` and `debounce` wait on the wall clock, which a test cannot own; these wait on `clock.sleep`, so a test that provides a virtual clock
 * replays a stated 7 s wait in no wall time.
 */
import type { Action } from '@reduxjs/toolkit';
import type { ActionPattern } from 'redux-saga/effects';
import { call, cancelled, fork, race, take } from 'typed-redux-saga';
import { contextReader, type ClockContext } from './sagaContext';

const fromContext = contextReader<ClockContext>();

/**
 * Waits `ms` on the context's clock and ends with true (as redux-saga's `delay` does, so that
 * `race({ ..., timedOut: call(wait, ms) })` tells a timeout by its value). A wait that is
 * cancelled (a race it lost, a flow stopped) aborts its sleep: no timer is left behind.
 */
export function* wait(ms: number) {
  const clock = yield* fromContext('clock');
  const controller = new AbortController();
  try {
    yield* call([clock, clock.sleep], ms, controller.signal);
    return true;
  } finally {
    if (yield* cancelled()) controller.abort();
  }
}

/**
 * Waits until `ms` have passed on the clock with no action of `pattern`, starting again at each
 * one, and returns the last of them (`latest` when none came): a debounce's quiet.
 */
export function* quietFor<A extends Action>(ms: number, pattern: ActionPattern<A>, latest: A) {
  let last = latest;
  while (true) {
    const { later } = yield* race({ quiet: call(wait, ms), later: take(pattern) });
    if (!later) return last;
    last = later;
  }
}

/**
 * redux-saga's `debounce(ms, pattern, worker, ...args)` on the context's clock: the worker runs
 * with the last action of a burst, once `ms` have passed without another. Run it forked
 * (`yield* fork(debounceOn, ms, pattern, worker, ...args)`), as the watcher it is.
 */
export function* debounceOn<A extends Action, Args extends unknown[]>(
  ms: number,
  pattern: ActionPattern<A>,
  worker: (...args: [...Args, A]) => unknown,
  ...args: Args
) {
  while (true) {
    const first = yield* take(pattern);
    const last = yield* call(quietFor<A>, ms, pattern, first);
    yield* fork(worker as (...all: unknown[]) => unknown, ...args, last);
  }
}

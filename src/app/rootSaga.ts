import { spawn } from 'typed-redux-saga';
import type { Saga } from 'redux-saga';

/** Long-running flows of the features; each feature adds its watcher here. */
const featureSagas: Saga[] = [];

/**
 * makeStore runs this once the persisted settings are restored. Each feature's saga is
 * spawned, not forked, so an error in one flow cannot stop the others.
 */
export function* rootSaga() {
  for (const saga of featureSagas) {
    yield* spawn(saga);
  }
}

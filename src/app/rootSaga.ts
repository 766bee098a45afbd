import { call, fork } from 'typed-redux-saga';
import type { Saga } from 'redux-saga';
import { gameSagaLoader } from '../features/game/gameSagaLoader';
import { storiesSagaLoader } from '../features/stories/storiesSagaLoader';
import { picturesSagaLoader } from '../features/pictures/picturesSagaLoader';
import { modelListSaga } from '../features/llm';
import { walletSaga } from '../features/wallet';

/** Long-running flows of the features; each feature adds its watcher here. */
const featureSagas: Saga[] = [
  walletSaga,
  gameSagaLoader,
  storiesSagaLoader,
  picturesSagaLoader,
  modelListSaga,
];

/** Runs one feature's saga; an error there is reported and stops only that feature. */
function* isolated(saga: Saga) {
  try {
    yield* call(saga);
  } catch (error) {
    console.error(`The ${saga.name} flow stopped after an error`, error);
  }
}

/**
 * makeStore runs this once the persisted settings are restored. Each feature's saga runs
 * isolated, so an error in one flow cannot stop the others; cancelling the root (the store's
 * stop()) ends them all.
 */
export function* rootSaga() {
  for (const saga of featureSagas) {
    yield* fork(isolated, saga);
  }
}

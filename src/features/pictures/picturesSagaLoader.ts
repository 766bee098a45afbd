import type { Action } from '@reduxjs/toolkit';
import { call, select, take } from 'typed-redux-saga';
import { gameActions, type Story } from '../game';
import { providerById } from '../llm';
import { selectSettings } from '../settings';

/**
 * Whether an event makes pictures possible: a key accepted for a provider that draws (a custom
 * server is not asked, listImageModels), or a story taken up that was illustrated (its pictures
 * are shown whatever the provider).
 */
function* wantsPictures(action: Action) {
  if (gameActions.savedStoryResumed.match(action)) {
    return (action.payload as Story).illustrated;
  }
  const provider = providerById((yield* select(selectSettings)).provider);
  return provider.draws !== null && provider.id !== 'custom';
}

/**
 * In the home bundle: the pictures' flows (and their client) load with the first event that
 * makes pictures possible, so a game that can have none never downloads them (issue 41, part 6).
 */
export function* picturesSagaLoader() {
  for (;;) {
    const action = yield* take([
      gameActions.apiKeyAccepted.type,
      gameActions.savedStoryResumed.type,
    ]);
    if (yield* call(wantsPictures, action)) break;
  }
  const { picturesSaga } = yield* call(
    () => import(/* webpackChunkName: "pictures-flow" */ './sagas/picturesSaga'),
  );
  yield* call(picturesSaga);
}

import type { Action } from '@reduxjs/toolkit';
import { call, select, setContext, take } from 'typed-redux-saga';
import { gameActions, type Story } from '../game';
import { PICTURE_PROVIDERS } from '../llm';
import { selectSettings } from '../settings';
import { fromContext } from './sagas/sagaContext';

/**
 * Whether an event makes pictures possible: a key accepted for a provider that draws
 * (PICTURE_PROVIDERS; a Custom server once its player has named its image model), or a story
 * taken up that was illustrated (its pictures are shown whatever the provider).
 */
function* wantsPictures(action: Action) {
  if (gameActions.savedStoryResumed.match(action)) {
    return (action.payload as Story).illustrated;
  }
  const { provider, imageModel } = yield* select(selectSettings);
  return PICTURE_PROVIDERS.has(provider) && (provider !== 'custom' || imageModel.trim() !== '');
}

/**
 * In the home bundle: the pictures' flows and their client load with the first event that
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
  const flows = yield* call(() => import(/* webpackChunkName: "pictures-offer" */ './flows'));
  // The browser's own client, which comes with them, unless the store was given one (a test's).
  if (!(yield* fromContext('pictureClient'))) {
    yield* setContext({ pictureClient: flows.browserPictureClient() });
  }
  yield* call(flows.picturesSaga);
}

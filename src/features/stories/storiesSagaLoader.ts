import { call, take } from 'typed-redux-saga';
import { gameActions } from '../game';
import { storiesActions } from './storiesSlice';

/**
 * In the home bundle: the saved stories' flows (and idb) load with the game, when the player
 * submits an API key, or when something asks for the list first. A list asked for while they
 * load is served as soon as they start.
 */
export function* storiesSagaLoader() {
  yield* take([gameActions.apiKeySubmitted.type, storiesActions.savedStoriesRequested.type]);
  const { storiesSaga } = yield* call(
    () => import(/* webpackChunkName: "stories-flow" */ './sagas/storiesSaga'),
  );
  yield* call(storiesSaga);
}

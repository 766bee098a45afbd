import { call, fork, take } from 'typed-redux-saga';
import { ANY_FLOW_STARTER } from './flowStarters';
import { tellNewStories } from './newStory';

/**
 * In the home bundle: waits for the first action that starts a game flow (the API key
 * submitted, or a choice made in a store that began mid-story), then loads the game's flows
 * and hands that action to them, so the home screen never downloads them. From the start it
 * also tells when the game has taken a new story (newStory.ts).
 */
export function* gameSagaLoader() {
  yield* fork(tellNewStories);
  const first = yield* take(ANY_FLOW_STARTER);
  const { gameSaga } = yield* call(
    () => import(/* webpackChunkName: "game-flow" */ './sagas/gameSaga'),
  );
  yield* call(gameSaga, first);
}

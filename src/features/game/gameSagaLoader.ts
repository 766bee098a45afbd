import { call, take } from 'typed-redux-saga';
import { gameActions } from './gameSlice';

/**
 * In the home bundle: waits for the first game event (the API key submitted), then loads the
 * game's flows and hands that event to them, so the home screen never downloads them.
 */
export function* gameSagaLoader() {
  const first = yield* take(gameActions.apiKeySubmitted);
  const { gameSaga } = yield* call(
    () => import(/* webpackChunkName: "game-flow" */ './sagas/gameSaga'),
  );
  yield* call(gameSaga, first);
}

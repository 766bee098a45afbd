import { call, take } from 'typed-redux-saga';
import { gameActions } from './gameSlice';

/** The actions that start one of the game's flows (sagas/gameSaga.ts handles each). */
const GAME_FLOW_STARTERS = [
  gameActions.apiKeySubmitted.type,
  gameActions.characterNamed.type,
  gameActions.openingRetryRequested.type,
  gameActions.choiceMade.type,
  gameActions.turnRetryRequested.type,
  // A story opened from the list may go on with a rewrite or an edit before any choice.
  gameActions.rewriteRequested.type,
  gameActions.paragraphEdited.type,
  gameActions.choiceEdited.type,
];

/**
 * In the home bundle: waits for the first action that starts a game flow (the API key
 * submitted, or a choice made in a store that began mid-story), then loads the game's flows
 * and hands that action to them, so the home screen never downloads them.
 */
export function* gameSagaLoader() {
  const first = yield* take(GAME_FLOW_STARTERS);
  const { gameSaga } = yield* call(
    () => import(/* webpackChunkName: "game-flow" */ './sagas/gameSaga'),
  );
  yield* call(gameSaga, first);
}

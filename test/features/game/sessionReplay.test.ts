/**
 * The replay helper (test/support/sagaReplay.ts): a turn played in a real store, recorded as
 * Redux DevTools sees it (every action, in order) with the model's answers, replays with
 * expectSaga to the same actions and the same state. The random source differs on purpose:
 * the recorded rolls are handed in, so the replay needs no seed.
 */
import { Tuple, configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { rootReducer, type RootState } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import { gameActions, gameSaga, type GameState } from '../../../src/features/game';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME } from '../../fixtures/games';
import { STILL_CLOCK, replayedPuts } from '../../support/sagaReplay';
import { scriptedModel } from '../../support/scriptedModel';

/** A store running the game's flows that keeps every action dispatched, as DevTools would. */
function recordingStore(state: RootState) {
  const actions: UnknownAction[] = [];
  const waiting: { type: string; resolve: () => void }[] = [];
  const recorder: Middleware = () => (next) => (action) => {
    // Kept before it goes on: the puts it sets off come after it, as in DevTools.
    actions.push(action as UnknownAction);
    const result = next(action);
    for (const wait of waiting.filter((w) => w.type === (action as UnknownAction).type)) {
      wait.resolve();
    }
    return result;
  };
  const sagas = createSagaMiddleware({
    context: {
      model: scriptedModel(gameReply),
      random: seededRng(11),
      clock: STILL_CLOCK,
      storage: null,
      connectPage: null,
    },
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: state,
    middleware: () => new Tuple(recorder, sagas),
  });
  const task = sagas.run(gameSaga);
  /** Resolves when an action of this type has been dispatched (no clock involved). */
  const dispatched = (type: string) =>
    new Promise<void>((resolve) => waiting.push({ type, resolve }));
  return { store, actions, dispatched, stop: () => task.cancel() };
}

test('a recorded turn replays with expectSaga to the same actions, in order, and the same state', async () => {
  const initial = rootReducer(undefined, { type: 'test/init' });
  const before: RootState = {
    ...initial,
    settings: { ...initial.settings, provider: 'custom', model: 'fake-model' },
    game: { ...initial.game, ...(PLAYING_GAME as GameState), apiKey: 'sk-test' },
  };
  const recording = recordingStore(before);
  const summaryStored = recording.dispatched(gameActions.summaryStored.type);
  recording.store.dispatch(gameActions.choiceMade({ index: 1 }));
  await summaryStored;
  recording.stop();

  const { puts, expected, state } = await replayedPuts({
    state: before,
    actions: recording.actions,
    model: gameReply,
  });

  expect(expected.map((action) => action.type)).toEqual([
    gameActions.outcomeRolled.type,
    gameActions.scenarioPicked.type,
    gameActions.segmentReceived.type,
    gameActions.summaryStored.type,
  ]);
  expect(puts).toEqual(expected);
  expect(state.game).toEqual(recording.store.getState().game);
  expect(state.playerStats).toEqual(recording.store.getState().playerStats);
});

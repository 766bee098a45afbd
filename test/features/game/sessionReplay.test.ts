/**
 * The replay helper (test/support/sagaReplay.ts): a turn played in a real store, recorded as
 * Redux DevTools sees it (every action, in order) with the model's answers, replays with
 * expectSaga to the same actions and the same state. The random source differs on purpose:
 * the recorded rolls are handed in, so the replay needs no seed.
 */
import { rootReducer, type RootState } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import { gameActions } from '../../../src/features/game';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, gameAt } from '../../fixtures/games';
import { gameStore } from '../../support/gameStore';
import { replayedPuts } from '../../support/sagaReplay';
import { scriptedModel } from '../../support/scriptedModel';

test('a recorded turn replays with expectSaga to the same actions, in order, and the same state', async () => {
  const initial = rootReducer(undefined, { type: 'test/init' });
  const before: RootState = {
    ...initial,
    settings: { ...initial.settings, provider: 'custom', model: 'fake-model' },
    game: gameAt(PLAYING_GAME),
  };
  const recording = gameStore(before, { model: scriptedModel(gameReply), random: seededRng(11) });
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
    gameActions.tokensCounted.type,
    gameActions.segmentReceived.type,
    gameActions.optionsOffered.type,
    gameActions.summaryStored.type,
  ]);
  expect(puts).toEqual(expected);
  expect(state.game).toEqual(recording.store.getState().game);
});

/**
 * Issue 20: a store made by makeStore from a preloaded playing state plays a turn at once; the
 * game's flows need no key submitted first. The app's own store, its sagas and the saga
 * context a test gives (a scripted model, a virtual clock); the test waits on the store's state,
 * never on a clock.
 */
import 'fake-indexeddb/auto';
import { makeStore } from '../../src/app/store';
import { seededRng } from '../../src/engine/random';
import { gameActions } from '../../src/features/game';
import { gameReply } from '../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith } from '../fixtures/games';
import { scriptedModel } from '../support/scriptedModel';
import { virtualClock } from '../support/virtualClock';

test('a preloaded story under way plays its next turn, the first action the store gets', async () => {
  const model = scriptedModel(gameReply);
  const store = makeStore({
    preloadedState: appStateWith(PLAYING_GAME, { provider: 'custom', model: 'fake-model' }),
    context: { model, random: seededRng(3), clock: virtualClock(), storage: null },
  });
  const turnOver = new Promise<void>((resolve) => {
    const unsubscribe = store.subscribe(() => {
      if (store.getState().game.story.storySummary.length === 2) {
        unsubscribe();
        resolve();
      }
    });
  });
  store.dispatch(gameActions.choiceMade({ index: 1 }));
  await turnOver;
  store.stop();

  expect(model.requests).toHaveLength(1);
  // The turn is over: nothing being written, no failure, the next choices offered.
  expect(store.getState().game.story.turnCount).toBe(1);
  expect(store.getState().game.turn).toEqual({ phase: 'choosing' });
  expect(store.getState().game.story.options.length).toBeGreaterThan(0);
});

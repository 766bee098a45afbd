import { makeStore } from '../../../src/app/store';
import {
  gameActions,
  initialGameState,
  type GameState,
} from '../../../src/features/game/gameSlice';
import { initialPlayerStatsState } from '../../../src/features/game/playerStatsSlice';
import { segmentOffered } from '../../fixtures/games';

const storeAt = (game: Partial<GameState>) =>
  makeStore({
    preloadedState: {
      game: { ...initialGameState, ...game },
      playerStats: initialPlayerStatsState,
    },
  });

const choice = {
  turn: 1,
  option: {
    text: 'Climb',
    risk: 'high' as const,
    alignment: 'neutral' as const,
    traitAlignment: '',
  },
  freeText: false,
  outcome: 'success' as const,
  scenarioType: 'standard' as const,
  outcomesSoFar: ['success' as const],
};

test('cancelling the opening leaves it ready to be tried again', () => {
  const store = storeAt({ stage: 'loading', isLoading: true });
  store.dispatch(gameActions.waitCancelled());
  expect(store.getState().game).toEqual(
    expect.objectContaining({ stage: 'loading', isLoading: false, error: 'openingFailed' }),
  );
  store.dispatch(gameActions.openingRetryRequested());
  expect(store.getState().game).toEqual(expect.objectContaining({ isLoading: true, error: null }));
});

test('cancelling the recap leaves the ended turn ready to be tried again', () => {
  const store = storeAt({ stage: 'playing', isLoading: true, isFinal: true, lastChoice: choice });
  store.dispatch(gameActions.waitCancelled());
  expect(store.getState().game.error).toBe('turnFailed');
  store.dispatch(gameActions.turnRetryRequested());
  expect(store.getState().game.isLoading).toBe(true);
});

test('after a failed turn a new choice is refused: Try again is the way on', () => {
  const store = storeAt({
    stage: 'playing',
    error: 'turnFailed',
    lastChoice: choice,
    turnCount: 1,
  });
  store.dispatch(gameActions.outcomeRolled(choice));
  store.dispatch(gameActions.scenarioPicked(choice));
  expect(store.getState().game.turnCount).toBe(1);
  expect(store.getState().game.outcomes).toEqual([]);
});

describe("a segment's summary", () => {
  const options = [choice.option];
  const writing = { stage: 'playing' as const, isLoading: true, lastChoice: choice };

  test('the options show once offered; the summary is pending until it is in', () => {
    const store = storeAt({ ...writing, storySummary: ['It began.'] });
    for (const action of segmentOffered('Next.', options)) store.dispatch(action);
    expect(store.getState().game).toEqual(
      expect.objectContaining({ isLoading: false, options, summaryPending: true }),
    );
    store.dispatch(gameActions.summaryStored('It went on.'));
    expect(store.getState().game).toEqual(
      expect.objectContaining({
        isLoading: false,
        summaryPending: false,
        storySummary: ['It began.', 'It went on.'],
      }),
    );
  });

  test('a summary that comes in while the next turn loads is kept, and the turn loads on', () => {
    const store = storeAt(writing);
    for (const action of segmentOffered('Next.', options)) store.dispatch(action);
    store.dispatch(gameActions.outcomeRolled(choice));
    store.dispatch(gameActions.scenarioPicked(choice));
    store.dispatch(
      gameActions.turnRetryScheduled({ reason: 'rateLimited', attempt: 1, retryAt: 1 }),
    );
    store.dispatch(gameActions.summaryStored('It went on.'));
    expect(store.getState().game).toEqual(
      expect.objectContaining({
        isLoading: true,
        summaryPending: false,
        storySummary: ['It went on.'],
        // The wait shown was the summary's.
        wait: null,
      }),
    );
  });

  test('a summary nobody is waiting for is ignored', () => {
    const store = storeAt({ stage: 'playing', storySummary: ['It began.'] });
    store.dispatch(gameActions.summaryStored('From another story.'));
    expect(store.getState().game.storySummary).toEqual(['It began.']);
  });

  test('a final segment stays loading through its summary until the recap', () => {
    const store = storeAt(writing);
    store.dispatch(gameActions.segmentReceived({ text: 'The end.', isFinal: true }));
    // A final segment offers nothing: options would be ignored.
    store.dispatch(gameActions.optionsOffered(options));
    expect(store.getState().game).toEqual(
      expect.objectContaining({ isLoading: true, options: [], summaryPending: true }),
    );
    store.dispatch(gameActions.summaryStored('It ended.'));
    expect(store.getState().game).toEqual(
      expect.objectContaining({ isLoading: true, summaryPending: false }),
    );
  });

  test("Cancel on the next turn leaves the summary pending; leaving the game doesn't", () => {
    const store = storeAt(writing);
    for (const action of segmentOffered('Next.', options)) store.dispatch(action);
    store.dispatch(gameActions.outcomeRolled(choice));
    store.dispatch(gameActions.scenarioPicked(choice));
    store.dispatch(gameActions.waitCancelled());
    expect(store.getState().game.summaryPending).toBe(true);
    store.dispatch(gameActions.returnedHome());
    expect(store.getState().game.summaryPending).toBe(false);
  });

  test('cancelling a final turn stops its summary with it', () => {
    const store = storeAt(writing);
    store.dispatch(gameActions.segmentReceived({ text: 'The end.', isFinal: true }));
    // A final segment offers nothing: options would be ignored.
    store.dispatch(gameActions.optionsOffered(options));
    store.dispatch(gameActions.waitCancelled());
    expect(store.getState().game).toEqual(
      expect.objectContaining({ summaryPending: false, error: 'turnFailed' }),
    );
  });
});

test('a retry after a garbled or dropped reply clears what had streamed in', () => {
  const store = storeAt({ stage: 'playing', isLoading: true, streamingText: 'The bro' });
  store.dispatch(
    gameActions.turnRetryScheduled({ reason: 'interrupted', attempt: 1, retryAt: null }),
  );
  expect(store.getState().game.streamingText).toBe('');
  store.stop();
});

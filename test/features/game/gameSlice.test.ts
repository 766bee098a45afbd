import { makeStore } from '../../../src/app/store';
import {
  gameActions,
  initialGameState,
  type GameState,
} from '../../../src/features/game/gameSlice';
import { initialPlayerStatsState } from '../../../src/features/game/playerStatsSlice';

const storeAt = (game: Partial<GameState>) =>
  makeStore({ game: { ...initialGameState, ...game }, playerStats: initialPlayerStatsState });

const choice = {
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
  store.dispatch(gameActions.choiceSubmitted(choice));
  expect(store.getState().game.turnCount).toBe(1);
  expect(store.getState().game.outcomes).toEqual([]);
});

test('a segment keeps the turn loading until its summary is in; the options then show', () => {
  const store = storeAt({ stage: 'playing', isLoading: true, lastChoice: choice });
  const options = [choice.option];
  store.dispatch(gameActions.segmentReceived({ text: 'Next.', options, isFinal: false }));
  expect(store.getState().game).toEqual(expect.objectContaining({ isLoading: true, options }));
  store.dispatch(gameActions.segmentSummarized('It went on.'));
  expect(store.getState().game.isLoading).toBe(false);
});

test('a retry after a garbled or dropped reply clears what had streamed in', () => {
  const store = storeAt({ stage: 'playing', isLoading: true, streamingText: 'The bro' });
  store.dispatch(
    gameActions.turnRetryScheduled({ reason: 'interrupted', attempt: 1, retryAt: null }),
  );
  expect(store.getState().game.streamingText).toBe('');
  store.stop();
});

import { makeStore } from '../../../src/app/store';
import { gameActions, type Turn } from '../../../src/features/game';
import { gameAt, segmentOffered, type GameAt } from '../../fixtures/games';

const stores: ReturnType<typeof makeStore>[] = [];
const storeAt = (game: GameAt) => {
  const store = makeStore({ preloadedState: { game: gameAt(game) } });
  stores.push(store);
  return store;
};
afterEach(() => stores.splice(0).forEach((store) => store.stop()));

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

const writingTurn: Turn = { phase: 'writing', streamed: '', thinking: false, wait: null };
/** A turn whose choice is rolled and resolved, its segment asked for. */
const writing: GameAt = {
  turn: writingTurn,
  story: {
    storyLog: [
      { kind: 'paragraph', text: 'It began.' },
      { kind: 'choice', text: 'Climb', outcome: null, freeText: false },
    ],
    turnCount: 1,
    lastChoice: choice,
  },
};

test('cancelling the opening leaves it ready to be tried again', () => {
  const store = storeAt({ turn: { ...writingTurn, phase: 'opening', progress: 25 } });
  store.dispatch(gameActions.waitCancelled());
  expect(store.getState().game.turn).toEqual({ phase: 'openingFailed', problem: null });
  store.dispatch(gameActions.openingRetryRequested());
  expect(store.getState().game.turn).toMatchObject({ phase: 'opening', progress: 0 });
});

test('cancelling the recap leaves the ended turn ready to be tried again', () => {
  const store = storeAt({
    ...writing,
    turn: { ...writingTurn, phase: 'concluding' },
    story: { ...writing.story, isFinal: true },
  });
  store.dispatch(gameActions.waitCancelled());
  expect(store.getState().game.turn.phase).toBe('failed');
  store.dispatch(gameActions.turnRetryRequested());
  expect(store.getState().game.turn.phase).toBe('concluding');
});

test('after a failed turn a new choice is refused: Try again is the way on', () => {
  const store = storeAt({ ...writing, turn: { phase: 'failed', problem: null } });
  store.dispatch(gameActions.outcomeRolled(choice));
  store.dispatch(gameActions.scenarioPicked(choice));
  expect(store.getState().game.story.turnCount).toBe(1);
  expect(store.getState().game.story.outcomes).toEqual([]);
  store.dispatch(gameActions.turnRetryRequested());
  expect(store.getState().game.turn.phase).toBe('writing');
});

test('the stats follow the roll the slice takes, and only that one', () => {
  const store = storeAt({
    turn: { phase: 'choosing' },
    story: { storyLog: writing.story!.storyLog!.slice(0, 1) },
  });
  const before = store.getState().game.story.playerStats;
  store.dispatch(gameActions.outcomeRolled(choice));
  const after = store.getState().game.story.playerStats;
  expect(after).not.toEqual(before);
  // A second roll in the same turn is not the slice's to take, and the stats stay.
  store.dispatch(gameActions.outcomeRolled(choice));
  expect(store.getState().game.story.playerStats).toBe(after);
});

describe("a segment's summary", () => {
  const options = [choice.option];

  test('the options show once offered; the summary is pending until it is in', () => {
    const store = storeAt({ ...writing, story: { ...writing.story, storySummary: ['It began.'] } });
    for (const action of segmentOffered('Next.', options)) store.dispatch(action);
    expect(store.getState().game.turn).toEqual({ phase: 'choosing' });
    expect(store.getState().game.story.options).toEqual(options);
    expect(store.getState().game.summary).toBe('pending');
    store.dispatch(gameActions.summaryStored('It went on.'));
    expect(store.getState().game.summary).toBe('written');
    expect(store.getState().game.story.storySummary).toEqual(['It began.', 'It went on.']);
  });

  test('a summary that comes in while the next turn loads is kept, and the turn loads on', () => {
    const store = storeAt(writing);
    for (const action of segmentOffered('Next.', options)) store.dispatch(action);
    store.dispatch(gameActions.outcomeRolled({ ...choice, turn: 2 }));
    store.dispatch(gameActions.scenarioPicked({ ...choice, turn: 2 }));
    store.dispatch(
      gameActions.turnRetryScheduled({ reason: 'rateLimited', attempt: 1, retryAt: 1 }),
    );
    store.dispatch(gameActions.summaryStored('It went on.'));
    const { game } = store.getState();
    expect(game.summary).toBe('written');
    expect(game.story.storySummary).toEqual(['It went on.']);
    // The wait shown was the summary's.
    expect(game.turn).toEqual(writingTurn);
  });

  test('a summary nobody is waiting for is ignored', () => {
    const store = storeAt({ turn: { phase: 'choosing' }, story: { storySummary: ['It began.'] } });
    store.dispatch(gameActions.summaryStored('From another story.'));
    expect(store.getState().game.story.storySummary).toEqual(['It began.']);
  });

  test('a final segment concludes: its summary is written before the recap', () => {
    const store = storeAt(writing);
    store.dispatch(gameActions.segmentReceived({ text: 'The end.', isFinal: true }));
    // A final segment offers nothing: options would be ignored.
    store.dispatch(gameActions.optionsOffered(options));
    expect(store.getState().game.turn.phase).toBe('concluding');
    expect(store.getState().game.story.options).toEqual([]);
    expect(store.getState().game.summary).toBe('pending');
    store.dispatch(gameActions.summaryStored('It ended.'));
    expect(store.getState().game.turn.phase).toBe('concluding');
    expect(store.getState().game.summary).toBe('written');
  });

  test("Cancel on the next turn leaves the summary pending; leaving the game doesn't", () => {
    const store = storeAt(writing);
    for (const action of segmentOffered('Next.', options)) store.dispatch(action);
    store.dispatch(gameActions.outcomeRolled({ ...choice, turn: 2 }));
    store.dispatch(gameActions.scenarioPicked({ ...choice, turn: 2 }));
    store.dispatch(gameActions.waitCancelled());
    expect(store.getState().game.summary).toBe('pending');
    store.dispatch(gameActions.returnedHome());
    expect(store.getState().game.summary).toBe('written');
  });

  test('cancelling a final turn stops its summary with it', () => {
    const store = storeAt(writing);
    store.dispatch(gameActions.segmentReceived({ text: 'The end.', isFinal: true }));
    store.dispatch(gameActions.waitCancelled());
    expect(store.getState().game.summary).toBe('written');
    expect(store.getState().game.turn.phase).toBe('failed');
  });
});

test('a retry after a garbled or dropped reply clears what had streamed in', () => {
  const store = storeAt({ ...writing, turn: { ...writingTurn, streamed: 'The bro' } });
  store.dispatch(
    gameActions.turnRetryScheduled({ reason: 'interrupted', attempt: 1, retryAt: null }),
  );
  expect(store.getState().game.turn).toMatchObject({ phase: 'writing', streamed: '' });
});

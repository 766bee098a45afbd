/**
 * The saved stories' flows replayed with expectSaga over the real reducers and a real
 * (fake-indexeddb) MyStoriesDB, fresh for each test.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { call } from 'redux-saga/effects';
import delayP from '@redux-saga/delay-p';
import { expectSaga } from 'redux-saga-test-plan';
import {
  gameActions,
  gameSlice,
  initialGameState,
  initialPlayerStatsState,
  playerStatsSlice,
  scoreComputed,
  selectResumableGame,
  type GameState,
  type Recap,
} from '../../../src/features/game';
import { resultsApi } from '../../../src/features/leaderboard';
import {
  StorageError,
  initialStoriesState,
  listStories,
  openStoriesDb,
  saveStory,
  storiesActions,
  storiesSlice,
  storyToJson,
  type SaveResult,
  type SavedStory,
  type StoriesDb,
  type StoriesState,
} from '../../../src/features/stories';
import { AUTO_SAVE_DELAY_MS, storiesSaga } from '../../../src/features/stories/storiesSaga';
import type { TabChannel } from '../../../src/features/stories/tabChannel';
import { fakeTabs } from './fakeTabs';
import { storyDraftOf } from '../../../src/features/stories/gameRecord';
import { initialWalletState, walletSlice } from '../../../src/features/wallet/walletSlice';

const WALLET = '0xaaaa000000000000000000000000000000000001';
const OTHER_WALLET = '0xbbbb000000000000000000000000000000000002';
const OPENING = 'The road ends at a locked gate under a sky of iron.';
const SECOND = 'The gate gives way, and the valley below is full of lanterns.';

const reducer = combineReducers({
  game: gameSlice.reducer,
  playerStats: playerStatsSlice.reducer,
  wallet: walletSlice.reducer,
  stories: storiesSlice.reducer,
});
type State = ReturnType<typeof reducer>;

const playing: GameState = {
  ...initialGameState,
  stage: 'playing',
  apiKey: 'sk-secret-key',
  chosenGenre: 'High Fantasy',
  chosenImage: 5,
  chosenCharacter: 'Aria Vale',
  characterBio: 'A cartographer who maps forgotten roads.',
  characterTraits: ['curious', 'stubborn'],
  storyLog: [{ kind: 'paragraph', text: OPENING }],
  previousParagraph: OPENING,
  storySummary: ['Aria reached the gate.'],
  options: [
    { text: 'Climb the gate', risk: 'high', alignment: 'neutral', traitAlignment: 'stubborn' },
    { text: 'Knock politely', risk: 'low', alignment: 'moral', traitAlignment: 'curious' },
  ],
};

const choice = {
  turn: 1,
  option: playing.options[0]!,
  freeText: false,
  outcome: 'success' as const,
  scenarioType: 'standard' as const,
  outcomesSoFar: ['success' as const],
};

const recap: Recap = {
  wrapUpParagraph: 'And so the roads were mapped.',
  bigMoment: 'The gate',
  frequentActivity: 'Climbing',
  characterTraitHighlight: 'Stubborn',
  themeExploration: 'Home',
  overallScore: 80,
  endingType: 'Heroic Victory',
};

function stateWith(
  game: Partial<GameState> = {},
  { wallet = WALLET as string | null, stories = {} as Partial<StoriesState> } = {},
): State {
  return {
    game: { ...playing, ...game },
    playerStats: initialPlayerStatsState,
    wallet: wallet
      ? { ...initialWalletState, status: 'verified', address: wallet }
      : initialWalletState,
    stories: { ...initialStoriesState, ...stories },
  };
}

let factory: IDBFactory;
let db: StoriesDb;
beforeEach(async () => {
  factory = new IDBFactory();
  db = await openStoriesDb(factory);
});
afterEach(() => db.close());

/** A clock for the auto-save's 100 ms: it moves only when the test says so. */
function manualClock() {
  let waiting: Array<() => void> = [];
  return {
    wait: () => new Promise<void>((resolve) => waiting.push(resolve)),
    /** Lets every pending 100 ms wait end, as if 100 ms of quiet had passed. */
    tick() {
      const due = waiting;
      waiting = [];
      due.forEach((resolve) => resolve());
    },
    get pending() {
      return waiting.length;
    },
  };
}

type Clock = ReturnType<typeof manualClock>;

/** Other waits (the notices' expiry) pass at once; the auto-save's follows `clock` if given. */
interface RunOptions {
  clock?: Clock;
  open?: () => Promise<StoriesDb>;
  /** Holds every saveStory call until it resolves. */
  saveGate?: Promise<void>;
  /** This tab's end of the channel to the other tabs; none by default. */
  tabs?: TabChannel;
}

function run(state: State, { clock, open, saveGate, tabs }: RunOptions = {}) {
  return expectSaga(storiesSaga)
    .withReducer(reducer, state)
    .provide({
      call(effect: { fn: unknown; args: unknown[] }, next: () => unknown) {
        if (effect.fn === saveStory && saveGate) {
          return saveGate.then(() => saveStory(...(effect.args as Parameters<typeof saveStory>)));
        }
        if (effect.fn !== delayP) return next();
        if (effect.args[0] === AUTO_SAVE_DELAY_MS && clock) return clock.wait().then(() => true);
        // A delay ends with true (debounce tells its end from an action by it).
        return true;
      },
      getContext(name: string, next: () => unknown) {
        if (name === 'openStoriesDb') return open ?? (() => openStoriesDb(factory));
        if (name === 'openTabChannel') return () => tabs ?? null;
        return next();
      },
    } as never);
}

/** The record a save made, as the slice keeps the story being played. */
function recordOf(result: SaveResult, walletAddress: string) {
  if (!result.saved) throw new Error(`not saved: ${result.reason}`);
  const { id, revision, lastSaved } = result;
  return { id, walletAddress, revision, lastSaved };
}

/** The record the game would save for `game`, as new. */
const draftOf = (game: GameState) =>
  storyDraftOf(selectResumableGame({ game, playerStats: initialPlayerStatsState }), null);

/** The wallet's stories, once there are `count` of them. */
async function waitForStories(count: number) {
  let stories = await listStories(db, WALLET);
  for (let i = 0; i < 100 && stories.length < count; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    stories = await listStories(db, WALLET);
  }
  expect(stories).toHaveLength(count);
  return stories;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error('condition not reached');
};

describe('auto-save', () => {
  test('a burst of changes inside 100 ms is one write, of the state after the last change', async () => {
    const clock = manualClock();
    const running = run(stateWith({ isLoading: true, stage: 'playing', lastChoice: choice }), {
      clock,
    })
      .dispatch(
        gameActions.segmentReceived({ text: SECOND, options: playing.options, isFinal: false }),
      )
      .dispatch(gameActions.summaryStored('Aria opened the gate.'))
      .dispatch(scoreComputed({ scoreBreakdown: initialPlayerStatsState.scoreBreakdown, score: 0 }))
      .silentRun(300);
    // Each change restarted the wait; only the last change's wait is still raced.
    await until(() => clock.pending > 0);
    clock.tick();
    const result = await running;

    const saves = result.effects.call?.filter((effect) => effect.payload.fn === saveStory) ?? [];
    expect(saves).toHaveLength(1);
    const stories = await listStories(db, WALLET);
    expect(stories).toHaveLength(1);
    expect(stories[0]).toEqual(
      expect.objectContaining({
        walletAddress: WALLET,
        chosenCharacter: 'Aria Vale',
        previousParagraph: SECOND,
        characterImage: '/characters/5.png',
      }),
    );
    expect(stories[0]!.game).toEqual(
      expect.objectContaining({
        storySummary: ['Aria reached the gate.', 'Aria opened the gate.'],
      }),
    );
    expect(result.storeState.stories.current).toEqual({
      id: stories[0]!.id,
      walletAddress: WALLET,
      revision: 1,
      lastSaved: stories[0]!.lastSaved,
    });
    // Auto-saves are quiet; only the manual save says so.
    expect(result.storeState.stories.notice).toBeNull();
  });

  test('the story start is saved while the opening is still being summarized', async () => {
    const result = await run(
      stateWith({
        stage: 'loading',
        isLoading: true,
        storyLog: [],
        options: [],
        previousParagraph: '',
      }),
    )
      .dispatch(gameActions.openingReceived({ storyStart: OPENING, options: playing.options }))
      .put.like({ action: { type: storiesActions.storySaved.type } })
      .silentRun(300);
    const [story] = await listStories(db, WALLET);
    expect(story?.previousParagraph).toBe(OPENING);
    expect(result.storeState.stories.current?.id).toBe(story?.id);
  });

  test('a story saved before is updated in place', async () => {
    const first = await saveStory(db, draftOf(playing), WALLET);
    if (!first.saved) throw new Error('not saved');
    await run(
      stateWith(
        { isLoading: true, lastChoice: choice },
        { stories: { current: recordOf(first, WALLET) } },
      ),
    )
      .dispatch(
        gameActions.segmentReceived({ text: SECOND, options: playing.options, isFinal: false }),
      )
      .dispatch(gameActions.summaryStored('Aria opened the gate.'))
      .put.like({
        action: {
          type: storiesActions.storySaved.type,
          payload: {
            id: first.id,
            walletAddress: WALLET,
            revision: 2,
            manual: false,
            storyGeneration: 0,
          },
        },
      })
      .silentRun(300);
    const stories = await listStories(db, WALLET);
    expect(stories.map((story) => [story.id, story.previousParagraph])).toEqual([
      [first.id, SECOND],
    ]);
  });

  test('nothing is saved mid-turn: a choice without its paragraph, or a failed turn', async () => {
    // (expectSaga hands the saga only actions it takes, so each case starts where it matters.)
    const midTurn = await run(stateWith())
      .dispatch(gameActions.outcomeRolled(choice))
      .dispatch(gameActions.scenarioPicked(choice))
      .silentRun(300);
    expect(midTurn.storeState.game.isLoading).toBe(true);
    const failed = await run(stateWith({ error: 'turnFailed', lastChoice: choice }))
      .dispatch(gameActions.summaryStored('ignored: no turn is being written'))
      .silentRun(300);
    expect(failed.storeState.game.error).toBe('turnFailed');
    expect(await listStories(db, WALLET)).toEqual([]);
  });

  test('the ending is saved with its recap and ending type, never with the API key', async () => {
    await run(stateWith({ isLoading: true, isFinal: true, lastChoice: choice }))
      .dispatch(
        scoreComputed({
          scoreBreakdown: { decisions: 70, consistency: 60, creativity: 50, morality: 40 },
          score: 270,
        }),
      )
      .dispatch(gameActions.recapReceived(recap))
      .put.like({ action: { type: storiesActions.storySaved.type } })
      .silentRun(300);
    const [story] = await listStories(db, WALLET);
    expect(story).toEqual(expect.objectContaining({ isFinal: true, endingType: 'Heroic Victory' }));
    expect(story?.game).toEqual(expect.objectContaining({ recap, finalScore: 270 }));
    expect(JSON.stringify(story)).not.toContain('sk-secret-key');
  });

  test('a story of another wallet is saved as a new copy for the current one', async () => {
    const first = await saveStory(db, draftOf(playing), OTHER_WALLET);
    if (!first.saved) throw new Error('not saved');
    const result = await run(stateWith({}, { stories: { current: recordOf(first, OTHER_WALLET) } }))
      .dispatch(storiesActions.saveRequested())
      .silentRun(300);
    const mine = await listStories(db, WALLET);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.id).not.toBe(first.id);
    expect(await listStories(db, OTHER_WALLET)).toHaveLength(1);
    expect(result.storeState.stories.current).toMatchObject({
      id: mine[0]!.id,
      walletAddress: WALLET,
      revision: 1,
    });
  });

  test('without a wallet the story is saved as anonymous', async () => {
    await run(stateWith({}, { wallet: null }))
      .dispatch(storiesActions.saveRequested())
      .silentRun(300);
    expect(await listStories(db, null)).toHaveLength(1);
    expect((await listStories(db, 'anonymous'))[0]?.walletAddress).toBe('anonymous');
  });
});

describe('saves that meet other events', () => {
  test('a save that ends after Start New Game does not hand its record to the new story', async () => {
    // A real store (expectSaga passes on only the actions its saga takes), with every
    // saveStory held until the test lets it go.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sagaMiddleware = createSagaMiddleware({
      context: { openStoriesDb: () => openStoriesDb(factory), openTabChannel: () => null },
      effectMiddlewares: [
        (next) => (effect: { type: string; payload: { fn: unknown; args: unknown[] } }) =>
          next(
            effect.type === 'CALL' && effect.payload.fn === saveStory
              ? call(() =>
                  held.then(() =>
                    saveStory(...(effect.payload.args as Parameters<typeof saveStory>)),
                  ),
                )
              : effect,
          ),
      ],
    });
    const store = configureStore({
      reducer,
      preloadedState: stateWith({ stage: 'endingScreen', isFinal: true, recap }),
      middleware: (defaults) => defaults().concat(sagaMiddleware),
    });
    const task = sagaMiddleware.run(storiesSaga);

    store.dispatch(storiesActions.saveRequested());
    store.dispatch(gameActions.newGameStarted());
    release();
    await until(() => store.getState().stories.storyGeneration === 1);
    const [saved] = await waitForStories(1);
    // The old story's record was saved, but the new story does not take it as its own.
    expect(saved?.isFinal).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().game.stage).toBe('genreSelection');
    expect(store.getState().stories.current).toBeNull();
    task.cancel();
  });

  test('nothing is saved while the wallet is signing in (it would land under anonymous)', async () => {
    const state = stateWith();
    const result = await run({ ...state, wallet: { ...state.wallet, status: 'signing' } })
      .dispatch(storiesActions.saveRequested())
      .silentRun(200);
    expect(await listStories(db, null)).toEqual([]);
    expect(await listStories(db, WALLET)).toEqual([]);
    expect(result.storeState.stories.notice).toBeNull();
  });

  test('a failing auto-save is told once, though turns in between skip their saves', async () => {
    const unavailable = () =>
      Promise.reject(new StorageError('unavailable', 'This browser offers no IndexedDB'));
    const result = await run(stateWith(), { open: unavailable })
      .dispatch(gameActions.summaryStored('a change while at rest'))
      .delay(30)
      .dispatch(gameActions.outcomeRolled(choice))
      .dispatch(gameActions.scenarioPicked(choice))
      .delay(30)
      .dispatch(
        gameActions.segmentReceived({ text: SECOND, options: playing.options, isFinal: false }),
      )
      .delay(30)
      .dispatch(gameActions.summaryStored('Aria opened the gate.'))
      .silentRun(400);
    expect(result.storeState.game.turnCount).toBe(1);
    const failures =
      result.effects.put?.filter(
        (effect) => effect.payload.action.type === storiesActions.storySaveFailed.type,
      ) ?? [];
    expect(failures).toHaveLength(1);
  });
});

describe('two tabs on one story', () => {
  const OTHER_TAB = 'In the other tab, Aria turns back and takes the mountain pass instead.';

  /** The story saved once (this tab's record), then saved again by the other tab. */
  async function savedThenPlayedOnElsewhere() {
    const first = await saveStory(db, draftOf(playing), WALLET);
    if (!first.saved) throw new Error('not saved');
    const otherTabGame = {
      ...playing,
      turnCount: 1,
      previousParagraph: OTHER_TAB,
      storyLog: [...playing.storyLog, { kind: 'paragraph' as const, text: OTHER_TAB }],
    };
    const elsewhere = await saveStory(
      db,
      storyDraftOf(
        selectResumableGame({ game: otherTabGame, playerStats: initialPlayerStatsState }),
        recordOf(first, WALLET),
      ),
      WALLET,
    );
    if (!elsewhere.saved) throw new Error('not saved');
    return { first, elsewhere };
  }

  test("a save that finds the story moved on keeps this tab's line as a new story, overwrites nothing, and says so", async () => {
    const { first, elsewhere } = await savedThenPlayedOnElsewhere();
    const tabs = fakeTabs();
    const result = await run(
      stateWith(
        { isLoading: true, lastChoice: choice },
        { stories: { current: recordOf(first, WALLET) } },
      ),
      { tabs: tabs.open() },
    )
      .dispatch(
        gameActions.segmentReceived({ text: SECOND, options: playing.options, isFinal: false }),
      )
      .dispatch(gameActions.summaryStored('Aria opened the gate.'))
      .put.like({
        action: {
          type: storiesActions.storySavedAsBranch.type,
          payload: { from: first.id, revision: 1, walletAddress: WALLET, manual: false },
        },
      })
      .silentRun(300);

    const stories = await listStories(db, WALLET);
    expect(stories).toHaveLength(2);
    const original = stories.find((story) => story.id === first.id)!;
    const branch = stories.find((story) => story.id !== first.id)!;
    // The other tab's turn is still there, at the revision it wrote.
    expect(original).toMatchObject({ previousParagraph: OTHER_TAB, revision: elsewhere.revision });
    // This tab's turn is in a story of its own that says where it split from; the summary's
    // save (each change saves at once here) went on into it.
    expect(branch).toMatchObject({
      previousParagraph: SECOND,
      chosenCharacter: 'Aria Vale',
      revision: 2,
      branchOf: first.id,
    });
    // (expectSaga takes the put it asserted out of the effects: what is left is the second save.)
    const events = result.effects.put?.map((effect) => effect.payload.action.type);
    expect(events).toContain(storiesActions.storySaved.type);
    expect(events).not.toContain(storiesActions.storySavedAsBranch.type);
    const { stories: after } = result.storeState;
    expect(after.current).toEqual({
      id: branch.id,
      walletAddress: WALLET,
      revision: 2,
      lastSaved: branch.lastSaved,
    });
    expect(after.otherTab).toEqual({ status: 'branched', storyId: first.id, branchId: branch.id });
    // The other tabs hear of each save.
    expect(tabs.posted.map(({ id, revision }) => [id, revision])).toEqual([
      [branch.id, 1],
      [branch.id, 2],
    ]);
  });

  test('after the split, this tab saves on into its own story, and the notice stays', async () => {
    const { first } = await savedThenPlayedOnElsewhere();
    const result = await run(
      stateWith({ stage: 'playing' }, { stories: { current: recordOf(first, WALLET) } }),
    )
      .dispatch(storiesActions.saveRequested())
      .delay(50)
      .dispatch(gameActions.outcomeRolled(choice))
      .dispatch(gameActions.scenarioPicked(choice))
      .delay(50)
      .dispatch(
        gameActions.segmentReceived({ text: SECOND, options: playing.options, isFinal: false }),
      )
      .delay(50)
      .dispatch(gameActions.summaryStored('Aria opened the gate.'))
      .silentRun(400);

    const stories = await listStories(db, WALLET);
    expect(stories).toHaveLength(2);
    const branch = stories.find((story) => story.id !== first.id)!;
    // Saved at the split, then twice in the turn: the segment (the options show at once), then
    // its summary, written behind them.
    expect(branch).toMatchObject({ previousParagraph: SECOND, revision: 3, branchOf: first.id });
    expect(branch.game).toMatchObject({
      storySummary: expect.arrayContaining(['Aria opened the gate.']),
    });
    expect(result.storeState.stories.current).toMatchObject({ id: branch.id, revision: 3 });
    expect(result.storeState.stories.otherTab?.status).toBe('branched');
    // The split is the news; a 'saved' notice would only hide it.
    expect(result.storeState.stories.notice).toBeNull();
  });

  test("another tab's save of this story is heard at once, and Switch resumes the other tab's story", async () => {
    const first = await saveStory(db, draftOf(playing), WALLET);
    if (!first.saved) throw new Error('not saved');
    const tabs = fakeTabs();
    const otherTab = tabs.open();
    const running = run(stateWith({}, { stories: { current: recordOf(first, WALLET) } }), {
      tabs: tabs.open(),
    }).silentRun(400);
    // The other tab saves the story and tells the others, as its flows do.
    const { elsewhere } = await (async () => {
      const played = await saveStory(
        db,
        {
          ...draftOf({ ...playing, turnCount: 1, previousParagraph: OTHER_TAB }),
          id: first.id,
          walletAddress: WALLET,
          basedOn: first,
        },
        WALLET,
      );
      if (!played.saved) throw new Error('not saved');
      const { id, revision, lastSaved } = played;
      otherTab.post({ type: 'storySaved', id, revision, lastSaved });
      return { elsewhere: played };
    })();
    const result = await running;

    const heard = storiesActions.savedInAnotherTab({
      id: first.id,
      revision: elsewhere.revision,
      lastSaved: elsewhere.lastSaved,
    });
    expect(result.effects.put?.map((effect) => effect.payload.action)).toContainEqual(heard);
    expect(result.storeState.stories.otherTab).toEqual({ status: 'movedOn', storyId: first.id });
    // Nothing was written by this tab.
    expect((await listStories(db, WALLET)).map((story) => story.revision)).toEqual([2]);

    // Switch: the other tab's story, as it saved it, and the notice goes.
    const switched = await run(result.storeState)
      .dispatch(storiesActions.loadRequested(first.id))
      .put(storiesActions.storyLoaded(recordOf(elsewhere, WALLET)))
      .silentRun(300);
    expect(switched.storeState.game.previousParagraph).toBe(OTHER_TAB);
    expect(switched.storeState.stories.otherTab).toBeNull();
    expect(switched.storeState.stories.current).toMatchObject({ id: first.id, revision: 2 });
  });

  test('news of the write this tab last saw, or of another story, changes nothing', async () => {
    const first = await saveStory(db, draftOf(playing), WALLET);
    if (!first.saved) throw new Error('not saved');
    const tabs = fakeTabs();
    const otherTab = tabs.open();
    const running = run(stateWith({}, { stories: { current: recordOf(first, WALLET) } }), {
      tabs: tabs.open(),
    }).silentRun(200);
    otherTab.post({ type: 'storySaved', id: first.id, revision: 1, lastSaved: first.lastSaved });
    otherTab.post({ type: 'storySaved', id: first.id + 1, revision: 3, lastSaved: 'later' });
    const result = await running;
    expect(result.storeState.stories.otherTab).toBeNull();
  });

  test('the channel to the other tabs is closed when the flows end', async () => {
    const tabs = fakeTabs();
    await run(stateWith(), { tabs: tabs.open() }).silentRun(50);
    expect(tabs.openCount).toBe(0);
  });
});

describe('the manual save', () => {
  test("saves at once and says 'saved'; the notice goes by itself", async () => {
    const result = await run(stateWith())
      .dispatch(storiesActions.saveRequested())
      .put.like({ action: { type: storiesActions.storySaved.type, payload: { manual: true } } })
      .put.like({ action: { type: storiesActions.noticeDismissed.type } })
      .silentRun(300);
    expect(await listStories(db, WALLET)).toHaveLength(1);
    expect(result.storeState.stories.notice).toBeNull();
  });

  test('a storage failure says why, and stays until dismissed', async () => {
    const quota = Object.assign(new Error('The quota has been exceeded.'), {
      name: 'QuotaExceededError',
    });
    const result = await run(stateWith(), { open: () => Promise.reject(quota) })
      .dispatch(storiesActions.saveRequested())
      .put(storiesActions.storySaveFailed('quota'))
      .silentRun(300);
    expect(result.storeState.stories.notice).toEqual(
      expect.objectContaining({ kind: 'saveFailed', reason: 'quota' }),
    );
  });

  test('an auto-save failure is told once per reason, not at every turn', async () => {
    const unavailable = () =>
      Promise.reject(new StorageError('unavailable', 'This browser offers no IndexedDB'));
    const result = await run(stateWith(), { open: unavailable })
      .dispatch(gameActions.summaryStored('one'))
      .delay(50)
      .dispatch(gameActions.summaryStored('two'))
      .delay(50)
      .dispatch(gameActions.summaryStored('three'))
      .silentRun(300);
    const failures =
      result.effects.put?.filter(
        (effect) => effect.payload.action.type === storiesActions.storySaveFailed.type,
      ) ?? [];
    expect(failures).toHaveLength(1);
  });
});

describe('the list', () => {
  test("lists the current wallet's stories, and follows a wallet change at once", async () => {
    await saveStory(db, draftOf(playing), WALLET);
    await saveStory(db, draftOf({ ...playing, chosenCharacter: 'Bram Holt' }), OTHER_WALLET);
    const result = await run(stateWith({ stage: 'loadOrCreate' }))
      .dispatch(storiesActions.savedStoriesRequested())
      .delay(50)
      .dispatch(walletSlice.actions.signedIn(OTHER_WALLET))
      .silentRun(300);
    const { list } = result.storeState.stories;
    expect(list.status).toBe('loaded');
    expect(list.owner).toBe(OTHER_WALLET);
    expect(list.stories.map((story: SavedStory) => story.chosenCharacter)).toEqual(['Bram Holt']);
  });

  test('a list asked for before the flows started is served when they start', async () => {
    await saveStory(db, draftOf(playing), WALLET);
    const result = await run(
      stateWith(
        { stage: 'loadOrCreate' },
        { stories: { list: { ...initialStoriesState.list, status: 'loading' } } },
      ),
    ).silentRun(200);
    expect(result.storeState.stories.list.stories).toHaveLength(1);
  });

  test("a storage failure shows 'Failed to load stories' with its reason", async () => {
    const result = await run(stateWith({ stage: 'loadOrCreate' }), {
      open: () => Promise.reject(new StorageError('blocked', 'Another tab keeps version 1 open')),
    })
      .dispatch(storiesActions.savedStoriesRequested())
      .silentRun(200);
    expect(result.storeState.stories.list).toEqual(
      expect.objectContaining({ status: 'failed', error: 'blocked' }),
    );
  });
});

describe('load, delete, import', () => {
  test('loading an unfinished story resumes it at its turn, with this session’s key', async () => {
    const game: Partial<GameState> = {
      turnCount: 3,
      storyLog: [
        { kind: 'paragraph', text: OPENING },
        { kind: 'choice', text: 'Climb the gate', outcome: null, freeText: false },
        { kind: 'paragraph', text: SECOND },
      ],
      previousParagraph: SECOND,
    };
    const saved = await saveStory(db, draftOf({ ...playing, ...game }), WALLET);
    if (!saved.saved) throw new Error('not saved');
    const result = await run(
      stateWith({ ...initialGameState, stage: 'loadOrCreate', apiKey: 'sk-this-session' }),
    )
      .dispatch(storiesActions.loadRequested(saved.id))
      .put(storiesActions.storyLoaded(recordOf(saved, WALLET)))
      .silentRun(300);
    const resumed = result.storeState.game;
    expect(resumed).toEqual(
      expect.objectContaining({ stage: 'playing', apiKey: 'sk-this-session', ...game }),
    );
    expect(resumed.chosenImage).toBe(5);
  });

  test('loading a finished story opens the ending screen', async () => {
    const saved = await saveStory(db, draftOf({ ...playing, isFinal: true, recap }), WALLET);
    if (!saved.saved) throw new Error('not saved');
    const result = await run(stateWith({ ...initialGameState, stage: 'loadOrCreate' }))
      .dispatch(storiesActions.loadRequested(saved.id))
      .silentRun(300);
    expect(result.storeState.game).toEqual(
      expect.objectContaining({ stage: 'endingScreen', recap }),
    );
  });

  test('a story that is gone cannot be loaded, and says so', async () => {
    const result = await run(stateWith({ ...initialGameState, stage: 'loadOrCreate' }))
      .dispatch(storiesActions.loadRequested(99))
      .put(storiesActions.storyLoadFailed(null))
      .silentRun(200);
    expect(result.storeState.game.stage).toBe('loadOrCreate');
  });

  test("delete removes the record and says 'deleted'", async () => {
    const saved = await saveStory(db, draftOf(playing), WALLET);
    if (!saved.saved) throw new Error('not saved');
    const result = await run(stateWith({ stage: 'loadOrCreate' }))
      .dispatch(storiesActions.savedStoriesRequested())
      .delay(50)
      .dispatch(storiesActions.deleteConfirmed(saved.id))
      .silentRun(300);
    expect(await listStories(db, WALLET)).toEqual([]);
    expect(result.storeState.stories.list.stories).toEqual([]);
  });

  test('an export imports back as a new story of this wallet; a foreign file changes nothing', async () => {
    const saved = await saveStory(db, draftOf(playing), OTHER_WALLET);
    if (!saved.saved) throw new Error('not saved');
    const [exported] = await listStories(db, OTHER_WALLET);
    const result = await run(stateWith({ stage: 'loadOrCreate' }))
      .dispatch(storiesActions.importRequested(storyToJson(exported!)))
      .put(storiesActions.storyImported())
      .silentRun(300);
    const mine = await listStories(db, WALLET);
    expect(mine.map((story) => story.chosenCharacter)).toEqual(['Aria Vale']);
    expect(mine[0]!.id).not.toBe(saved.id);
    expect(result.storeState.stories.list.stories).toHaveLength(1);

    const refused = await run(stateWith({ stage: 'loadOrCreate' }))
      .dispatch(storiesActions.importRequested('{"hello": 1}'))
      .dispatch(storiesActions.importRequested('not json at all'))
      .silentRun(300);
    expect(refused.storeState.stories.notice).toEqual(
      expect.objectContaining({ kind: 'importFailed', reason: 'notJson' }),
    );
    expect(
      refused.effects.put?.map((effect) => effect.payload.action.payload).filter(Boolean),
    ).toEqual(expect.arrayContaining(['wrongFormat', 'notJson']));
    expect(await listStories(db, WALLET)).toHaveLength(1);
  });
});

describe('after the leaderboard save', () => {
  test("the wallet's final stories of that character and ending are deleted, and the note says how many", async () => {
    const finished = { ...playing, isFinal: true, recap };
    const played = await saveStory(db, draftOf(finished), WALLET);
    if (!played.saved) throw new Error('not saved');
    await saveStory(db, draftOf(playing), WALLET);
    await saveStory(db, draftOf({ ...finished, chosenCharacter: 'Bram Holt' }), WALLET);
    const fulfilled = {
      type: 'api/executeMutation/fulfilled',
      payload: 'saved',
      meta: {
        arg: {
          type: 'mutation',
          endpointName: 'saveGameResult',
          originalArgs: {
            address: WALLET,
            token: 'token',
            result: { character_name: 'Aria Vale', ending_type: 'Heroic Victory' },
          },
        },
        requestId: 'r1',
        requestStatus: 'fulfilled',
      },
    };
    expect(resultsApi.endpoints.saveGameResult.matchFulfilled(fulfilled as never)).toBe(true);
    const result = await run(
      stateWith(
        { stage: 'endingScreen', isFinal: true, recap },
        { stories: { current: recordOf(played, WALLET) } },
      ),
    )
      .dispatch(fulfilled)
      .put(storiesActions.finishedStoriesDeleted([played.id]))
      .silentRun(300);
    expect(result.storeState.stories.localStoriesDeleted).toBe(1);
    // The record is gone: a later save of this story starts a new one.
    expect(result.storeState.stories.current).toBeNull();
    const left = await listStories(db, WALLET);
    expect(left.map((story) => [story.chosenCharacter, story.isFinal]).sort()).toEqual([
      ['Aria Vale', false],
      ['Bram Holt', true],
    ]);
  });
});

test('a success notice goes by itself after its time', async () => {
  const result = await run(stateWith({ stage: 'loadOrCreate' }))
    .dispatch(storiesActions.storyDeleted(7))
    .put(storiesActions.noticeDismissed(1))
    .silentRun(100);
  expect(result.storeState.stories.notice).toBeNull();
});

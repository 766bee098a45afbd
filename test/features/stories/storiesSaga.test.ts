/**
 * The saved stories' flows, each run by its worker with expectSaga: the worker gets the action
 * that starts it, the real root reducer holds the state (the action already reduced, as the store
 * does before a saga hears it), the saga context is provided (a real fake-indexeddb MyStoriesDB,
 * fresh for each test, and the other tabs), and the run ends when the worker does: no timeout,
 * no wall clock. The puts are compared in order, then the final state and the records.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { UnknownAction } from '@reduxjs/toolkit';
import { CANCEL, buffers, channel } from 'redux-saga';
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic, type StaticProvider } from 'redux-saga-test-plan/providers';
import { call, cancel, fork, join, put, take } from 'typed-redux-saga';
import { wait as waitOnTheClock } from '../../../src/shared/waits';
import { rootReducer, type RootState } from '../../../src/app/store';
import {
  canChoose,
  canRewrite,
  gameActions,
  initialGameState,
  initialStory,
  scoreComputed,
  selectGameStage,
  type GameState,
  type Story,
  type Turn,
} from '../../../src/features/game';
import { resultsApi } from '../../../src/features/leaderboard';
import {
  AUTO_SAVE_DELAY_MS,
  NOTICE_MS,
  StorageError,
  autoSave,
  deleteFinished,
  deleteSaved,
  expireNotice,
  followWallet,
  hearOtherTabs,
  importStory,
  initialStoriesState,
  listSaved,
  listStories,
  loadSaved,
  manualSave,
  openStoriesDb,
  saveInTurn,
  keepInBrowser,
  saveStory,
  storiesActions,
  storiesSaga,
  storyToJson,
  type PersistentStorage,
  type SaveKind,
  type SaveOutcome,
  type SaveResult,
  type SavedStory,
  type StoriesDb,
  type StoriesState,
  type TabChannel,
} from '../../../src/features/stories';
import { storyDraftOf, storyOf } from '../../../src/features/stories/storyRecord';
import { initialWalletState, walletSlice } from '../../../src/features/wallet';
import { choiceResolved, gameAt, segmentOffered, type GameAt, RECAP } from '../../fixtures/games';
import { verifiedSession } from '../../fixtures/walletSessions';
import { contextProviders } from '../../support/sagaReplay';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';
import { fakeTabs } from './fakeTabs';

const WALLET = '0xaaaa000000000000000000000000000000000001';
const OTHER_WALLET = '0xbbbb000000000000000000000000000000000002';
const OPENING = 'The road ends at a locked gate under a sky of iron.';
const SECOND = 'The gate gives way, and the valley below is full of lanterns.';

/** The story under way at its first choice. */
const story: Story = {
  ...initialStory,
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

/** That story being played: its choices offered, the session's key in. */
const playing: GameState = gameAt({
  turn: { phase: 'choosing' },
  apiKey: 'sk-secret-key',
  story,
});

/** A paragraph being written, nothing of it shown yet. */
const nothingWritten = { streamed: '', thinking: false, wait: null };
const OPENING_WRITTEN: Turn = { phase: 'opening', progress: 0, ...nothingWritten };
const RECAP_WRITTEN: Turn = { phase: 'concluding', ...nothingWritten };
/** The load-or-create screen, no story: as a session with this key (or none) has it. */
const home = (apiKey = ''): GameAt => ({
  ...initialGameState,
  apiKey,
  turn: { phase: 'home' },
  story: initialStory,
});

const choice = {
  turn: 1,
  option: story.options[0]!,
  freeText: false,
  outcome: 'success' as const,
  scenarioType: 'standard' as const,
  outcomesSoFar: ['success' as const],
};

const recap = RECAP;

/** The turn's segment and the options it ends on, as the turn puts them. */
const segment = segmentOffered(SECOND, story.options);
const summary = gameActions.summaryStored('Aria opened the gate.');

const initial = rootReducer(undefined, { type: 'test/init' });

/**
 * The app's state: the game played with these changes (its turn, its story's fields), signed in
 * with this wallet (or none), these saved stories.
 */
function stateWith(
  { story: changes, ...game }: GameAt = {},
  { wallet = WALLET as string | null, stories = {} as Partial<StoriesState> } = {},
): RootState {
  return {
    ...initial,
    game: { ...playing, ...game, story: { ...story, ...changes } },
    wallet: wallet
      ? { ...initialWalletState, status: 'verified', address: wallet }
      : initialWalletState,
    stories: { ...initialStoriesState, ...stories },
  };
}

/** The state once the store has reduced `actions`, as it does before a saga hears one. */
const after = (state: RootState, ...actions: UnknownAction[]) =>
  actions.reduce<RootState>((reduced, action) => rootReducer(reduced, action), state);

let factory: IDBFactory;
let db: StoriesDb;
beforeEach(async () => {
  factory = new IDBFactory();
  db = await openStoriesDb(factory);
});
afterEach(() => db.close());

interface ContextOptions {
  open?: () => Promise<StoriesDb>;
  /** This tab's end of the channel to the other tabs; none by default. */
  tabs?: TabChannel;
  clock?: VirtualClock;
}

/**
 * The saga context: this test's MyStoriesDB and tabs, and a virtual clock (a notice's stay
 * passes in no wall time). The auto-save's 100 ms of quiet pass at once.
 */
function context({ open, tabs, clock }: ContextOptions = {}): StaticProvider[] {
  return [
    [
      matchers.call.fn(waitOnTheClock),
      dynamic(({ args: [ms] }: { args: unknown[] }, next: () => unknown) =>
        ms === AUTO_SAVE_DELAY_MS ? true : next(),
      ),
    ],
    ...contextProviders({
      openStoriesDb: open ?? (() => Promise.resolve(db)),
      openTabChannel: () => tabs ?? null,
      // A browser that has not promised to keep them (keepingStories.test.ts asks it).
      persistentStorage: notPromising,
      ...(clock && { clock }),
    }),
  ];
}

const notPromising: PersistentStorage = {
  persisted: () => Promise.resolve('notPersisted'),
  persist: () => Promise.resolve('notPersisted'),
};

type Run = Awaited<ReturnType<ReturnType<typeof expectSaga>['run']>>;

/** The browser's word on keeping the stories, which the root saga reads beside every flow. */
const isKeepingWord = (action: UnknownAction) =>
  action.type.startsWith('stories/storagePersistence');

/**
 * The actions a run put to the store, in order (not the root saga's own queue of saves, nor the
 * browser's word on keeping them: keepingStories.test.ts checks that).
 */
const puts = (result: Run): UnknownAction[] =>
  (result.effects.put ?? [])
    .filter((effect) => !effect.payload.channel)
    .map((effect) => effect.payload.action as UnknownAction)
    .filter((action) => !isKeepingWord(action));
const putTypes = (result: Run) => puts(result).map((action) => action.type);
const saveCalls = (result: Run) =>
  result.effects.call?.filter((effect) => effect.payload.fn === keepInBrowser) ?? [];

/** The record a save made, as the slice keeps the story being played. */
function recordOf(result: SaveResult, walletAddress: string) {
  if (!result.saved) throw new Error(`not saved: ${result.reason}`);
  const { id, revision, lastSaved, cloudId } = result;
  return { id, walletAddress, revision, lastSaved, cloudId };
}

/** The record the game would save for the story with these changes, as new. */
const draftOf = (changes: Partial<Story> = {}) => storyDraftOf({ ...story, ...changes }, null);

/** The state once the turn's choice is rolled and resolved: its segment is being written. */
const midTurn = (...args: Parameters<typeof stateWith>) =>
  after(stateWith(...args), ...choiceResolved(choice));

const failingWith = (error: Error) => () => Promise.reject(error);
const unavailable = failingWith(
  new StorageError('unavailable', 'This browser offers no IndexedDB'),
);

/**
 * The story played on: each burst of changes, then the auto-save once it is quiet, in turn, as
 * the flows run them (saveInTurn): a failure told once per reason, whatever is skipped between.
 */
function* playedOn(bursts: UnknownAction[][], before: SaveOutcome = 'saved') {
  let autoSaves = before;
  for (const burst of bursts) {
    for (const change of burst) yield* put(change);
    autoSaves = yield* call(autoSave, autoSaves);
  }
  return autoSaves;
}

/**
 * A moment for the flows to hear the actions put so far: expectSaga reduces an action at once
 * but tells the sagas of it a microtask later, where a store tells them before the next one.
 */
const heard = () => Promise.resolve();

/**
 * The root saga's watchers, for a test of their wiring: `actions` happen one after another, each
 * heard before the next, and the flows end (cancelled, as when the page closes) once `done` is
 * put, or at once.
 */
function* flowsUntil(done: string | null, ...actions: UnknownAction[]) {
  const flows = yield* fork(storiesSaga);
  for (const action of actions) {
    yield* put(action);
    yield* call(heard);
  }
  if (done) yield* take(done);
  yield* cancel(flows);
}

/**
 * The auto-save's waits on the clock for a burst of `changes`: each change starts its 100 ms
 * wait again, and
 * time moves only after the last one, whose wait then ends. It notes how many of the earlier
 * waits were still running then (each change should have cut the one before it short).
 */
function quietAfter(changes: number) {
  const running = new Set<object>();
  const clock = { waits: 0, stillRunningAtTheLast: 0 };
  const wait = ({ args: [ms] }: { args: unknown[] }) => {
    if (ms !== AUTO_SAVE_DELAY_MS) return true;
    clock.waits += 1;
    if (clock.waits >= changes) {
      clock.stillRunningAtTheLast = running.size;
      return true;
    }
    const waiting = new Promise<boolean>(() => undefined);
    running.add(waiting);
    return Object.assign(waiting, { [CANCEL]: () => void running.delete(waiting) });
  };
  return { clock, wait };
}

describe('auto-save', () => {
  test('a burst of changes to the story inside 100 ms is one write, of the story after the last change', async () => {
    const note = gameActions.storyNotePinned('Aria never turns back.');
    const burst = [...segment, summary, note];
    const { clock, wait } = quietAfter(burst.length);
    const result = await expectSaga(flowsUntil, storiesActions.storySaved.type, ...burst)
      .withReducer(rootReducer, midTurn())
      .provide([[matchers.call.fn(waitOnTheClock), dynamic(wait)], ...context()])
      .run(false);
    // Each change of the story restarted the wait; only the last one's wait ran its 100 ms.
    expect(clock).toEqual({ waits: burst.length, stillRunningAtTheLast: 0 });
    expect(putTypes(result)).toEqual([
      ...burst.map((change) => change.type),
      storiesActions.storySaved.type,
    ]);
    expect(saveCalls(result)).toHaveLength(1);

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
        storyNote: 'Aria never turns back.',
      }),
    );
    expect(result.storeState.stories.current).toEqual({
      id: stories[0]!.id,
      walletAddress: WALLET,
      revision: 1,
      lastSaved: stories[0]!.lastSaved,
      cloudId: stories[0]!.cloud?.id,
    });
    // Auto-saves are quiet; only the manual save says so.
    expect(result.storeState.stories.notice).toBeNull();
  });

  test('the auto-save follows the story: streamed words, a wait, or an event the turn does not hear start none', async () => {
    const quiet = [
      gameActions.reasoningStreamed(),
      gameActions.segmentStreamed('The gate gives'),
      gameActions.turnRetryScheduled({ reason: 'rateLimited', attempt: 1, retryAt: null }),
      gameActions.segmentStreamed('The gate gives way'),
      // The score is the conclusion's: mid-turn it changes nothing.
      scoreComputed({ scoreBreakdown: initialStory.scoreBreakdown, score: 0 }),
    ];
    const { clock, wait } = quietAfter(segment.length);
    const result = await expectSaga(
      flowsUntil,
      storiesActions.storySaved.type,
      ...quiet,
      ...segment,
    )
      .withReducer(rootReducer, midTurn())
      .provide([[matchers.call.fn(waitOnTheClock), dynamic(wait)], ...context()])
      .run(false);
    // The game's state changed with each of them, but not its story: no wait started for them.
    expect(result.storeState.game.story.storyLog.at(-1)).toEqual({
      kind: 'paragraph',
      text: SECOND,
    });
    expect(clock).toEqual({ waits: segment.length, stillRunningAtTheLast: 0 });
    expect(putTypes(result)).toEqual([
      ...[...quiet, ...segment].map((action) => action.type),
      storiesActions.storySaved.type,
    ]);
    expect(saveCalls(result)).toHaveLength(1);
  });

  test('a story loaded from the list is not saved again; a change of it after is', async () => {
    const first = await saveStory(db, draftOf(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const { id } = first;
    const note = gameActions.storyNotePinned('Aria never turns back.');
    /** Load the story, show the list (time passes), then change the story. */
    function* loadedThenChanged() {
      const flows = yield* fork(storiesSaga);
      yield* put(storiesActions.loadRequested(id));
      yield* take(storiesActions.storyLoaded.type);
      yield* put(storiesActions.savedStoriesRequested());
      yield* take(storiesActions.savedStoriesListed.type);
      yield* put(note);
      yield* take(storiesActions.storySaved.type);
      yield* cancel(flows);
    }
    // The auto-save's 100 ms end after the load has told the story's record.
    const later = () => Promise.resolve(true);
    const result = await expectSaga(loadedThenChanged)
      .withReducer(rootReducer, stateWith(home('sk-this-session')))
      .provide([[matchers.call.fn(waitOnTheClock), dynamic(later)], ...context()])
      .run(false);
    // The 'Story loaded!' notice goes by itself meanwhile: not part of this story.
    const shown = putTypes(result).filter((type) => type !== storiesActions.noticeDismissed.type);
    expect(shown).toEqual([
      storiesActions.loadRequested.type,
      gameActions.savedStoryResumed.type,
      storiesActions.storyLoaded.type,
      storiesActions.savedStoriesRequested.type,
      storiesActions.savedStoriesListed.type,
      note.type,
      storiesActions.storySaved.type,
    ]);
    expect(saveCalls(result)).toHaveLength(1);
    const [stored] = await listStories(db, WALLET);
    // The one write after the load is the change: the loaded story was not written again.
    expect(stored).toMatchObject({ id: first.id, revision: 2 });
    expect(stored!.game.storyNote).toBe('Aria never turns back.');
    expect(result.storeState.stories.current).toMatchObject({ id: first.id, revision: 2 });
  });

  test('the story start is saved while the opening is still being summarized', async () => {
    const opening = gameActions.openingReceived({ storyStart: OPENING, options: story.options });
    const loading = stateWith({
      turn: OPENING_WRITTEN,
      story: { storyLog: [], options: [], previousParagraph: '', storySummary: [] },
    });
    const result = await expectSaga(autoSave)
      .withReducer(rootReducer, after(loading, opening))
      .provide(context())
      .returns('saved')
      .run(false);
    expect(putTypes(result)).toEqual([storiesActions.storySaved.type]);
    const [saved] = await listStories(db, WALLET);
    expect(saved?.previousParagraph).toBe(OPENING);
    expect(result.storeState.stories.current?.id).toBe(saved?.id);
  });

  test('a story saved before is updated in place', async () => {
    const first = await saveStory(db, draftOf(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const state = midTurn({}, { stories: { current: recordOf(first, WALLET) } });
    const result = await expectSaga(autoSave)
      .withReducer(rootReducer, after(state, ...segment, summary))
      .provide(context())
      .run(false);
    expect(puts(result)).toMatchObject([
      {
        type: storiesActions.storySaved.type,
        payload: {
          id: first.id,
          walletAddress: WALLET,
          revision: 2,
          manual: false,
          storyGeneration: 0,
        },
      },
    ]);
    const stories = await listStories(db, WALLET);
    expect(stories.map((saved) => [saved.id, saved.previousParagraph])).toEqual([
      [first.id, SECOND],
    ]);
  });

  test('a rolled turn is saved before its segment, so a reload tries it again with the same roll', async () => {
    const rolled = midTurn();
    const saving = await expectSaga(autoSave)
      .withReducer(rootReducer, rolled)
      .provide(context())
      .returns('saved')
      .run(false);
    expect(saveCalls(saving)).toHaveLength(1);
    const [stored] = await listStories(db, WALLET);
    const restored = storyOf(stored!)!;
    expect(restored.lastChoice).toEqual(choice);
    expect(restored.storyLog.at(-1)).toMatchObject({ kind: 'choice', text: 'Climb the gate' });
    // Opened again, the turn waits to be written again (a rewrite, as after a Stop): no
    // option to choose, no new roll. With no rewrite left, Try again goes on with it.
    const resume = (turnRewrites: number) =>
      rootReducer(
        stateWith({ turn: { phase: 'home' } }),
        gameActions.savedStoryResumed({ ...restored, turnRewrites }),
      );
    expect(selectGameStage(resume(1))).toBe('playing');
    expect(resume(1).game.turn).toEqual({ phase: 'stopped' });
    expect(resume(1).game.story.lastChoice).toEqual(choice);
    expect(canChoose(resume(1).game)).toBe(false);
    expect(canRewrite(resume(1).game)).toBe(true);
    expect(resume(3).game.turn).toEqual({ phase: 'failed', problem: null });
    expect(resume(3).game.story.lastChoice).toEqual(choice);
    expect(canChoose(resume(3).game)).toBe(false);
  });

  test('a rewrite is saved as soon as it is asked for: a reload cannot take it back', async () => {
    const played = after(midTurn(), ...segment, summary);
    const { wait } = quietAfter(1);
    const rewrite = gameActions.rewriteRequested();
    const result = await expectSaga(flowsUntil, storiesActions.storySaved.type, rewrite)
      .withReducer(rootReducer, played)
      .provide([[matchers.call.fn(waitOnTheClock), dynamic(wait)], ...context()])
      .run(false);
    expect(putTypes(result)).toEqual([rewrite.type, storiesActions.storySaved.type]);
    const [stored] = await listStories(db, WALLET);
    expect(stored!.game).toMatchObject({ rewrites: 1, turnRewrites: 1 });
    expect(stored!.game.storyLog.at(-1)?.kind).toBe('choice');
  });

  test('nothing is saved between the roll and the scenario, nor a failed turn without its choice', async () => {
    const rolling = after(stateWith(), gameActions.outcomeRolled(choice));
    const midRoll = await expectSaga(autoSave)
      .withReducer(rootReducer, rolling)
      .provide(context())
      .returns('saved') // skipped: how the auto-saves went is left as it was
      .run(false);
    expect(saveCalls(midRoll)).toEqual([]);

    const failedTurn = after(
      stateWith({ turn: { phase: 'failed', problem: null }, story: { lastChoice: choice } }),
      gameActions.summaryStored('ignored: no turn is being written'),
    );
    const failed = await expectSaga(autoSave)
      .withReducer(rootReducer, failedTurn)
      .provide(context())
      .run(false);
    expect(puts(failed)).toEqual([]);
    expect(saveCalls(failed)).toEqual([]);
    expect(failed.storeState.game.turn).toEqual({ phase: 'failed', problem: null });
    expect(await listStories(db, WALLET)).toEqual([]);
  });

  test('the ending is saved with its recap and ending type, never with the API key', async () => {
    const ending = after(
      stateWith({ turn: RECAP_WRITTEN, story: { isFinal: true, lastChoice: choice } }),
      scoreComputed({
        scoreBreakdown: { decisions: 70, consistency: 60, creativity: 50, morality: 40 },
        score: 270,
      }),
      gameActions.recapReceived(recap),
    );
    const result = await expectSaga(autoSave)
      .withReducer(rootReducer, ending)
      .provide(context())
      .run(false);
    expect(putTypes(result)).toEqual([storiesActions.storySaved.type]);
    const [saved] = await listStories(db, WALLET);
    expect(saved).toEqual(expect.objectContaining({ isFinal: true, endingType: 'Heroic Victory' }));
    expect(saved?.game).toEqual(expect.objectContaining({ recap, finalScore: 270 }));
    expect(JSON.stringify(saved)).not.toContain('sk-secret-key');
  });

  test('a story of another wallet is saved as a new copy for the current one', async () => {
    const first = await saveStory(db, draftOf(), OTHER_WALLET);
    if (!first.saved) throw new Error('not saved');
    const state = stateWith({}, { stories: { current: recordOf(first, OTHER_WALLET) } });
    const result = await expectSaga(manualSave)
      .withReducer(rootReducer, after(state, storiesActions.saveRequested()))
      .provide(context())
      .run(false);
    const mine = await listStories(db, WALLET);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.id).not.toBe(first.id);
    expect(await listStories(db, OTHER_WALLET)).toHaveLength(1);
    expect(puts(result)).toMatchObject([
      { type: storiesActions.storySaved.type, payload: { id: mine[0]!.id, manual: true } },
    ]);
    expect(result.storeState.stories.current).toMatchObject({
      id: mine[0]!.id,
      walletAddress: WALLET,
      revision: 1,
    });
  });

  test('without a wallet the story is saved as anonymous', async () => {
    const state = stateWith({}, { wallet: null });
    const result = await expectSaga(manualSave)
      .withReducer(rootReducer, after(state, storiesActions.saveRequested()))
      .provide(context())
      .run(false);
    expect(putTypes(result)).toEqual([storiesActions.storySaved.type]);
    expect(await listStories(db, null)).toHaveLength(1);
    expect((await listStories(db, 'anonymous'))[0]?.walletAddress).toBe('anonymous');
  });
});

describe('saves that meet other events', () => {
  test('a save that ends after Start New Game does not hand its record to the new story', async () => {
    // Every saveStory is held until the test lets it go.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heldSave = ({ args }: { args: unknown[] }) =>
      held.then(() => saveStory(...(args as Parameters<typeof saveStory>)));
    /** The save starts (it has read the story), the player starts a new game, then it ends. */
    function* newGameDuringSave() {
      const saving = yield* fork(manualSave);
      yield* put(gameActions.newGameStarted());
      // The game's word that it took the new story (its watcher, newStory.ts, is not run here).
      yield* put(gameActions.newStoryBegun());
      release();
      yield* join(saving);
    }
    const ended = stateWith({ turn: { phase: 'ended' }, story: { isFinal: true, recap } });
    const result = await expectSaga(newGameDuringSave)
      .withReducer(rootReducer, after(ended, storiesActions.saveRequested()))
      .provide([[matchers.call.fn(saveStory), dynamic(heldSave)], ...context()])
      .run(false);

    expect(putTypes(result)).toEqual([
      gameActions.newGameStarted.type,
      gameActions.newStoryBegun.type,
      storiesActions.storySaved.type,
    ]);
    // The old story's record was saved, but the new story does not take it as its own.
    const saved = await listStories(db, WALLET);
    expect(saved.map((record) => record.isFinal)).toEqual([true]);
    expect(result.storeState.stories.storyGeneration).toBe(1);
    expect(selectGameStage(result.storeState)).toBe('genreSelection');
    expect(result.storeState.stories.current).toBeNull();
  });

  test('nothing is saved while the wallet is signing in (it would land under anonymous)', async () => {
    const state = stateWith();
    const signing = { ...state, wallet: { ...state.wallet, status: 'signing' as const } };
    const result = await expectSaga(manualSave)
      .withReducer(rootReducer, after(signing, storiesActions.saveRequested()))
      .provide(context())
      .run(false);
    expect(puts(result)).toEqual([]);
    expect(await listStories(db, null)).toEqual([]);
    expect(await listStories(db, WALLET)).toEqual([]);
    expect(result.storeState.stories.notice).toBeNull();
  });

  test('a failing auto-save is told once, though turns in between skip their saves', async () => {
    const result = await expectSaga(playedOn, [
      [gameActions.summaryStored('a change while at rest')],
      [gameActions.outcomeRolled(choice), gameActions.scenarioPicked(choice)],
      [...segment],
      [summary],
    ])
      .withReducer(rootReducer, stateWith())
      .provide(context({ open: unavailable }))
      .returns('unavailable')
      .run(false);
    expect(result.storeState.game.story.turnCount).toBe(1);
    expect(puts(result)).toEqual([
      gameActions.summaryStored('a change while at rest'),
      storiesActions.storySaveFailed('unavailable'),
      gameActions.outcomeRolled(choice),
      gameActions.scenarioPicked(choice),
      ...segment,
      summary,
    ]);
  });
});

describe('two tabs on one story', () => {
  const OTHER_TAB = 'In the other tab, Aria turns back and takes the mountain pass instead.';

  /** The story saved once (this tab's record), then saved again by the other tab. */
  async function savedThenPlayedOnElsewhere() {
    const first = await saveStory(db, draftOf(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const otherTabStory: Story = {
      ...story,
      turnCount: 1,
      previousParagraph: OTHER_TAB,
      storyLog: [...story.storyLog, { kind: 'paragraph' as const, text: OTHER_TAB }],
    };
    const elsewhere = await saveStory(
      db,
      storyDraftOf(otherTabStory, recordOf(first, WALLET)),
      WALLET,
    );
    if (!elsewhere.saved) throw new Error('not saved');
    return { first, elsewhere };
  }

  /** This tab hears the others until `count` saves were heard; then the flows end. */
  function* hearing(tabs: TabChannel, count: number) {
    const listening = yield* fork(hearOtherTabs, tabs);
    for (let heard = 0; heard < count; heard += 1) {
      yield* take(storiesActions.savedInAnotherTab.type);
    }
    yield* cancel(listening);
  }

  test("a save that finds the story moved on keeps this tab's line as a new story, overwrites nothing, and says so", async () => {
    const { first, elsewhere } = await savedThenPlayedOnElsewhere();
    const tabs = fakeTabs();
    const state = midTurn({}, { stories: { current: recordOf(first, WALLET) } });
    // Each change saves once the story is quiet: the segment, then its summary.
    const result = await expectSaga(playedOn, [[...segment], [summary]])
      .withReducer(rootReducer, state)
      .provide(context({ tabs: tabs.open() }))
      .returns('saved')
      .run(false);

    const stories = await listStories(db, WALLET);
    expect(stories).toHaveLength(2);
    const original = stories.find((story) => story.id === first.id)!;
    const branch = stories.find((story) => story.id !== first.id)!;
    // The other tab's turn is still there, at the revision it wrote.
    expect(original).toMatchObject({ previousParagraph: OTHER_TAB, revision: elsewhere.revision });
    // This tab's turn is in a story of its own that says where it split from; the summary's
    // save went on into it.
    expect(branch).toMatchObject({
      previousParagraph: SECOND,
      chosenCharacter: 'Aria Vale',
      revision: 2,
      branchOf: first.id,
    });
    expect(puts(result)).toMatchObject([
      ...segment,
      {
        type: storiesActions.storySavedAsBranch.type,
        payload: {
          id: branch.id,
          from: first.id,
          revision: 1,
          walletAddress: WALLET,
          manual: false,
        },
      },
      summary,
      { type: storiesActions.storySaved.type, payload: { id: branch.id, revision: 2 } },
    ]);
    const { stories: after } = result.storeState;
    expect(after.current).toEqual({
      id: branch.id,
      walletAddress: WALLET,
      revision: 2,
      lastSaved: branch.lastSaved,
      cloudId: branch.cloud?.id,
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
    /** Save Game splits the story; then a turn is played and auto-saved, as the flows do. */
    function* savedThenPlayed() {
      yield* put(storiesActions.saveRequested());
      yield* call(manualSave);
      return yield* call(playedOn, [
        [gameActions.outcomeRolled(choice), gameActions.scenarioPicked(choice)],
        [...segment],
        [summary],
      ]);
    }
    const result = await expectSaga(savedThenPlayed)
      .withReducer(rootReducer, stateWith({}, { stories: { current: recordOf(first, WALLET) } }))
      .provide(context())
      .run(false);

    const stories = await listStories(db, WALLET);
    expect(stories).toHaveLength(2);
    const branch = stories.find((story) => story.id !== first.id)!;
    // Saved at the split, then three times in the turn: its roll (a reload must not roll it
    // again), the segment (the options show at once), then its summary, written behind them.
    expect(putTypes(result)).toEqual([
      storiesActions.saveRequested.type,
      storiesActions.storySavedAsBranch.type,
      gameActions.outcomeRolled.type,
      gameActions.scenarioPicked.type,
      storiesActions.storySaved.type,
      ...segment.map((action) => action.type),
      storiesActions.storySaved.type,
      summary.type,
      storiesActions.storySaved.type,
    ]);
    expect(branch).toMatchObject({ previousParagraph: SECOND, revision: 4, branchOf: first.id });
    expect(branch.game).toMatchObject({
      storySummary: expect.arrayContaining(['Aria opened the gate.']),
    });
    expect(result.storeState.stories.current).toMatchObject({ id: branch.id, revision: 4 });
    expect(result.storeState.stories.otherTab?.status).toBe('branched');
    // The split is the news; a 'saved' notice would only hide it.
    expect(result.storeState.stories.notice).toBeNull();
  });

  test("another tab's save of this story is heard at once, and Switch resumes the other tab's story", async () => {
    const first = await saveStory(db, draftOf(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const tabs = fakeTabs();
    const otherTab = tabs.open();
    // The other tab saves the story, as its flows do.
    const elsewhere = await saveStory(
      db,
      {
        ...draftOf({ turnCount: 1, previousParagraph: OTHER_TAB }),
        id: first.id,
        walletAddress: WALLET,
        basedOn: first,
      },
      WALLET,
    );
    if (!elsewhere.saved) throw new Error('not saved');

    // This tab listens; then the other tab tells the others of its save.
    const listening = expectSaga(hearing, tabs.open(), 1)
      .withReducer(rootReducer, stateWith({}, { stories: { current: recordOf(first, WALLET) } }))
      .provide(context())
      .run(false);
    const { id, revision, lastSaved } = elsewhere;
    otherTab.post({ type: 'storySaved', id, revision, lastSaved });
    const result = await listening;

    expect(puts(result)).toEqual([
      storiesActions.savedInAnotherTab({ id: first.id, revision, lastSaved }),
    ]);
    expect(result.storeState.stories.otherTab).toEqual({ status: 'movedOn', storyId: first.id });
    // Nothing was written by this tab.
    expect((await listStories(db, WALLET)).map((story) => story.revision)).toEqual([2]);

    // Switch: the other tab's story, as it saved it, and the notice goes.
    const load = storiesActions.loadRequested(first.id);
    const switched = await expectSaga(loadSaved, load)
      .withReducer(rootReducer, after(result.storeState, load))
      .provide(context())
      .run(false);
    expect(putTypes(switched)).toEqual([
      gameActions.savedStoryResumed.type,
      storiesActions.storyLoaded.type,
    ]);
    expect(puts(switched)[1]).toEqual(storiesActions.storyLoaded(recordOf(elsewhere, WALLET)));
    expect(switched.storeState.game.story.previousParagraph).toBe(OTHER_TAB);
    expect(switched.storeState.stories.otherTab).toBeNull();
    expect(switched.storeState.stories.current).toMatchObject({ id: first.id, revision: 2 });
  });

  test('news of the write this tab last saw, or of another story, changes nothing', async () => {
    const first = await saveStory(db, draftOf(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const tabs = fakeTabs();
    const otherTab = tabs.open();
    const listening = expectSaga(hearing, tabs.open(), 2)
      .withReducer(rootReducer, stateWith({}, { stories: { current: recordOf(first, WALLET) } }))
      .provide(context())
      .run(false);
    otherTab.post({ type: 'storySaved', id: first.id, revision: 1, lastSaved: first.lastSaved });
    otherTab.post({ type: 'storySaved', id: first.id + 1, revision: 3, lastSaved: 'later' });
    const result = await listening;
    expect(putTypes(result)).toEqual([
      storiesActions.savedInAnotherTab.type,
      storiesActions.savedInAnotherTab.type,
    ]);
    expect(result.storeState.stories.otherTab).toBeNull();
  });

  test('the channel to the other tabs is closed when the flows end', async () => {
    const tabs = fakeTabs();
    const thisTab = tabs.open();
    expect(tabs.openCount).toBe(1);
    await expectSaga(flowsUntil, null)
      .withReducer(rootReducer, stateWith())
      .provide(context({ tabs: thisTab }))
      .run(false);
    expect(tabs.openCount).toBe(0);
  });
});

describe('the manual save', () => {
  test("saves at once and says 'saved'; the notice goes by itself", async () => {
    const saved = await expectSaga(manualSave)
      .withReducer(rootReducer, after(stateWith(), storiesActions.saveRequested()))
      .provide(context())
      .run(false);
    const [savedAction] = puts(saved);
    expect(puts(saved)).toMatchObject([
      { type: storiesActions.storySaved.type, payload: { manual: true } },
    ]);
    const { notice } = saved.storeState.stories;
    expect(notice).toMatchObject({ kind: 'saved' });

    const expired = await expectSaga(expireNotice, savedAction!)
      .withReducer(rootReducer, saved.storeState)
      .provide(context())
      .run(false);
    expect(puts(expired)).toEqual([storiesActions.noticeDismissed(notice!.seq)]);
    expect(await listStories(db, WALLET)).toHaveLength(1);
    expect(expired.storeState.stories.notice).toBeNull();
  });

  test('a storage failure says why, and stays until dismissed', async () => {
    const quota = Object.assign(new Error('The quota has been exceeded.'), {
      name: 'QuotaExceededError',
    });
    const result = await expectSaga(manualSave)
      .withReducer(rootReducer, after(stateWith(), storiesActions.saveRequested()))
      .provide(context({ open: failingWith(quota) }))
      .run(false);
    expect(puts(result)).toEqual([storiesActions.storySaveFailed('quota')]);
    expect(result.storeState.stories.notice).toEqual(
      expect.objectContaining({ kind: 'saveFailed', reason: 'quota' }),
    );
    // A failure's notice does not go by itself.
    const kept = await expectSaga(expireNotice, storiesActions.storySaveFailed('quota'))
      .withReducer(rootReducer, result.storeState)
      .provide(context())
      .run(false);
    expect(puts(kept)).toEqual([]);
  });

  test('an auto-save failure is told once per reason, not at every turn', async () => {
    // Three auto-saves waiting their turn, and no more to come.
    const saves = channel<SaveKind>(buffers.expanding());
    ['auto', 'auto', 'auto'].forEach((kind) => saves.put(kind as SaveKind));
    saves.close();
    const result = await expectSaga(saveInTurn, saves)
      .withReducer(rootReducer, stateWith())
      .provide(context({ open: unavailable }))
      .run(false);
    expect(puts(result)).toEqual([storiesActions.storySaveFailed('unavailable')]);
  });
});

describe('the list', () => {
  test("lists the current wallet's stories, and follows a wallet change at once", async () => {
    await saveStory(db, draftOf(), WALLET);
    await saveStory(db, draftOf({ chosenCharacter: 'Bram Holt' }), OTHER_WALLET);
    const requested = storiesActions.savedStoriesRequested();
    const listed = await expectSaga(listSaved)
      .withReducer(rootReducer, after(stateWith({ turn: { phase: 'home' } }), requested))
      .provide(context())
      .run(false);
    expect(putTypes(listed)).toEqual([storiesActions.savedStoriesListed.type]);
    expect(listed.storeState.stories.list.owner).toBe(WALLET);

    const signedIn = walletSlice.actions.signedIn(verifiedSession(OTHER_WALLET));
    const followed = await expectSaga(followWallet)
      .withReducer(rootReducer, after(listed.storeState, signedIn))
      .provide(context())
      .run(false);
    expect(puts(followed)).toEqual([requested]);

    const relisted = await expectSaga(listSaved)
      .withReducer(rootReducer, followed.storeState)
      .provide(context())
      .run(false);
    const { list } = relisted.storeState.stories;
    expect(list.status).toBe('loaded');
    expect(list.owner).toBe(OTHER_WALLET);
    expect(list.stories.map((story: SavedStory) => story.chosenCharacter)).toEqual(['Bram Holt']);
  });

  test('a list asked for before the flows started is served when they start', async () => {
    await saveStory(db, draftOf(), WALLET);
    const asked = stateWith(
      { turn: { phase: 'home' } },
      { stories: { list: { ...initialStoriesState.list, status: 'loading' } } },
    );
    const result = await expectSaga(flowsUntil, storiesActions.savedStoriesListed.type)
      .withReducer(rootReducer, asked)
      .provide(context())
      .run(false);
    expect(putTypes(result)).toEqual([storiesActions.savedStoriesListed.type]);
    expect(result.storeState.stories.list.stories).toHaveLength(1);
  });

  test("a storage failure shows 'Failed to load stories' with its reason", async () => {
    const blocked = new StorageError('blocked', 'Another tab keeps version 1 open');
    const result = await expectSaga(listSaved)
      .withReducer(
        rootReducer,
        after(stateWith({ turn: { phase: 'home' } }), storiesActions.savedStoriesRequested()),
      )
      .provide(context({ open: failingWith(blocked) }))
      .run(false);
    expect(puts(result)).toEqual([storiesActions.savedStoriesFailed('blocked')]);
    expect(result.storeState.stories.list).toEqual(
      expect.objectContaining({ status: 'failed', error: 'blocked' }),
    );
  });
});

describe('load, delete, import', () => {
  const atHome = stateWith(home());

  test('loading an unfinished story resumes it at its turn, with this session’s key', async () => {
    const game: Partial<Story> = {
      turnCount: 3,
      storyLog: [
        { kind: 'paragraph', text: OPENING },
        { kind: 'choice', text: 'Climb the gate', outcome: null, freeText: false },
        { kind: 'paragraph', text: SECOND },
      ],
      previousParagraph: SECOND,
    };
    const saved = await saveStory(db, draftOf(game), WALLET);
    if (!saved.saved) throw new Error('not saved');
    const load = storiesActions.loadRequested(saved.id);
    const atHomeWithKey = stateWith(home('sk-this-session'));
    const result = await expectSaga(loadSaved, load)
      .withReducer(rootReducer, after(atHomeWithKey, load))
      .provide(context())
      .run(false);
    expect(putTypes(result)).toEqual([
      gameActions.savedStoryResumed.type,
      storiesActions.storyLoaded.type,
    ]);
    expect(puts(result)[1]).toEqual(storiesActions.storyLoaded(recordOf(saved, WALLET)));
    const resumed = result.storeState.game;
    expect(selectGameStage(result.storeState)).toBe('playing');
    expect(resumed.turn).toEqual({ phase: 'choosing' });
    expect(resumed.apiKey).toBe('sk-this-session');
    expect(resumed.story).toEqual(expect.objectContaining(game));
    expect(resumed.story.chosenImage).toBe(5);
  });

  test('loading a finished story opens the ending screen', async () => {
    const saved = await saveStory(db, draftOf({ isFinal: true, recap }), WALLET);
    if (!saved.saved) throw new Error('not saved');
    const load = storiesActions.loadRequested(saved.id);
    const result = await expectSaga(loadSaved, load)
      .withReducer(rootReducer, after(atHome, load))
      .provide(context())
      .run(false);
    expect(putTypes(result)).toEqual([
      gameActions.savedStoryResumed.type,
      storiesActions.storyLoaded.type,
    ]);
    expect(selectGameStage(result.storeState)).toBe('endingScreen');
    expect(result.storeState.game.story.recap).toEqual(recap);
  });

  test('a story that is gone cannot be loaded, and says so', async () => {
    const load = storiesActions.loadRequested(99);
    const result = await expectSaga(loadSaved, load)
      .withReducer(rootReducer, after(atHome, load))
      .provide(context())
      .run(false);
    expect(puts(result)).toEqual([storiesActions.storyLoadFailed(null)]);
    expect(selectGameStage(result.storeState)).toBe('loadOrCreate');
  });

  test("delete removes the record and says 'deleted'", async () => {
    const saved = await saveStory(db, draftOf(), WALLET);
    if (!saved.saved) throw new Error('not saved');
    const list = {
      status: 'loaded' as const,
      owner: WALLET,
      stories: await listStories(db, WALLET),
      error: null,
    };
    const confirmed = storiesActions.deleteConfirmed(saved.id);
    const result = await expectSaga(deleteSaved, confirmed)
      .withReducer(
        rootReducer,
        after(stateWith({ turn: { phase: 'home' } }, { stories: { list } }), confirmed),
      )
      .provide(context())
      .run(false);
    expect(puts(result)).toEqual([storiesActions.storyDeleted(saved.id)]);
    expect(await listStories(db, WALLET)).toEqual([]);
    expect(result.storeState.stories.list.stories).toEqual([]);
    expect(result.storeState.stories.notice).toMatchObject({ kind: 'deleted' });
  });

  test('an export imports back as a new story of this wallet; a foreign file changes nothing', async () => {
    const saved = await saveStory(db, draftOf(), OTHER_WALLET);
    if (!saved.saved) throw new Error('not saved');
    const [exported] = await listStories(db, OTHER_WALLET);
    const imported = storiesActions.importRequested(storyToJson(exported!));
    const atHome = stateWith({ turn: { phase: 'home' } });
    const result = await expectSaga(importStory, imported)
      .withReducer(rootReducer, after(atHome, imported))
      .provide(context())
      .run(false);
    expect(puts(result)).toEqual([
      storiesActions.storyImported(),
      storiesActions.savedStoriesRequested(),
    ]);
    const mine = await listStories(db, WALLET);
    expect(mine.map((story) => story.chosenCharacter)).toEqual(['Aria Vale']);
    expect(mine[0]!.id).not.toBe(saved.id);
    // The list it asked for shows the new story.
    const listed = await expectSaga(listSaved)
      .withReducer(rootReducer, result.storeState)
      .provide(context())
      .run(false);
    expect(listed.storeState.stories.list.stories).toHaveLength(1);

    const foreign = storiesActions.importRequested('{"hello": 1}');
    const refused = await expectSaga(importStory, foreign)
      .withReducer(rootReducer, after(atHome, foreign))
      .provide(context())
      .run(false);
    expect(puts(refused)).toEqual([storiesActions.storyImportFailed('wrongFormat')]);
    const garbled = storiesActions.importRequested('not json at all');
    const refusedAgain = await expectSaga(importStory, garbled)
      .withReducer(rootReducer, after(refused.storeState, garbled))
      .provide(context())
      .run(false);
    expect(puts(refusedAgain)).toEqual([storiesActions.storyImportFailed('notJson')]);
    expect(refusedAgain.storeState.stories.notice).toEqual(
      expect.objectContaining({ kind: 'importFailed', reason: 'notJson' }),
    );
    expect(await listStories(db, WALLET)).toHaveLength(1);
  });
});

describe('after the leaderboard save', () => {
  test("the wallet's final stories of that character and ending are deleted, and the note says how many", async () => {
    const finished = { isFinal: true, recap };
    const played = await saveStory(db, draftOf(finished), WALLET);
    if (!played.saved) throw new Error('not saved');
    await saveStory(db, draftOf(), WALLET);
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
    const ending = stateWith(
      { turn: { phase: 'ended' }, story: { isFinal: true, recap } },
      { stories: { current: recordOf(played, WALLET) } },
    );
    const result = await expectSaga(deleteFinished, fulfilled as never)
      .withReducer(rootReducer, after(ending, fulfilled))
      .provide(context())
      .run(false);
    expect(puts(result)).toEqual([storiesActions.finishedStoriesDeleted([played.id])]);
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
  const deleted = storiesActions.storyDeleted(7);
  const clock = virtualClock();
  const result = await expectSaga(expireNotice, deleted)
    .withReducer(rootReducer, after(stateWith({ turn: { phase: 'home' } }), deleted))
    .provide(context({ clock }))
    .run(false);
  expect(puts(result)).toEqual([storiesActions.noticeDismissed(1)]);
  expect(result.storeState.stories.notice).toBeNull();
  // Its time, on the saga context's clock.
  expect(clock.slept).toEqual([NOTICE_MS]);
  expect(clock.now()).toBe(NOTICE_MS);
});

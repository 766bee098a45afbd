import { makeStore } from '../../../src/app/store';
import { gameActions, initialStory } from '../../../src/features/game';
import { storiesActions, selectUnfinishedStory } from '../../../src/features/stories';
import type { SavedStory } from '../../../src/features/stories';

const story = (id: number, isFinal: boolean): SavedStory => ({
  id,
  walletAddress: '0xabc',
  lastSaved: `2026-11-2${id}T10:00:00.000Z`,
  chosenCharacter: `Hero ${id}`,
  chosenGenre: 'Fantasy',
  characterBio: 'A hero of the roads.',
  characterImage: '/characters/1.png',
  previousParagraph: 'The road ends at a locked gate.',
  isFinal,
  endingType: isFinal ? 'Heroic Victory' : '',
  game: initialStory,
  revision: 1,
  branchOf: null,
});

let store: ReturnType<typeof makeStore>;
beforeEach(() => {
  store = makeStore();
});
afterEach(() => store.stop());

test('an older notice dismissed late does not take a newer one with it', () => {
  store.dispatch(storiesActions.storyDeleted(1));
  const first = store.getState().stories.notice!;
  store.dispatch(storiesActions.storySaveFailed('quota'));
  store.dispatch(storiesActions.noticeDismissed(first.seq));
  expect(store.getState().stories.notice).toEqual(
    expect.objectContaining({ kind: 'saveFailed', reason: 'quota' }),
  );
  store.dispatch(storiesActions.noticeDismissed(store.getState().stories.notice!.seq));
  expect(store.getState().stories.notice).toBeNull();
});

test('only the manual save says it saved; a new story starts without a record', () => {
  const record = { id: 4, walletAddress: '0xabc', revision: 2, lastSaved: '2026-11-21T10:00:00Z' };
  const saved = (manual: boolean, storyGeneration = 0) =>
    storiesActions.storySaved({ ...record, manual, storyGeneration });
  store.dispatch(storiesActions.storySaveFailed('quota'));
  store.dispatch(saved(false));
  // A quiet auto-save says nothing, but a save that works again clears the failure.
  expect(store.getState().stories.notice).toBeNull();
  expect(store.getState().stories.current).toEqual(record);
  store.dispatch(saved(true));
  expect(store.getState().stories.notice?.kind).toBe('saved');
  store.dispatch(gameActions.apiKeyAccepted('sk'));
  store.dispatch(gameActions.newGameStarted());
  expect(store.getState().stories.current).toBeNull();
  // The old story's save finishing late does not make its record the new story's.
  store.dispatch(saved(false, 0));
  expect(store.getState().stories.current).toBeNull();
  store.dispatch(saved(false, 1));
  expect(store.getState().stories.current).toEqual(record);
});

test('the unfinished story offered is the newest one not finished, once the list is loaded', () => {
  expect(selectUnfinishedStory(store.getState())).toBeNull();
  store.dispatch(storiesActions.savedStoriesRequested());
  store.dispatch(
    storiesActions.savedStoriesListed({
      owner: '0xabc',
      stories: [story(3, true), story(2, false), story(1, false)],
    }),
  );
  expect(selectUnfinishedStory(store.getState())?.id).toBe(2);
  store.dispatch(storiesActions.storyDeleted(2));
  expect(selectUnfinishedStory(store.getState())?.id).toBe(1);
});

describe('word that another tab played this story on', () => {
  const current = { id: 4, walletAddress: '0xabc', revision: 2, lastSaved: '2026-11-21T10:00:00Z' };
  const elsewhere = { id: 4, revision: 3, lastSaved: '2026-11-21T10:00:09Z' };
  const otherTab = () => store.getState().stories.otherTab;

  beforeEach(() => {
    store.dispatch(storiesActions.storyLoaded(current));
  });

  test("another tab's save of this story moves it on; of another story, or this write, does not", () => {
    store.dispatch(storiesActions.savedInAnotherTab({ ...elsewhere, id: 5 }));
    store.dispatch(storiesActions.savedInAnotherTab(current));
    expect(otherTab()).toBeNull();
    store.dispatch(storiesActions.savedInAnotherTab(elsewhere));
    expect(otherTab()).toEqual({ status: 'movedOn', storyId: 4 });
  });

  test('a split makes the new story this tab’s and stays through later news and saves', () => {
    const branch = { ...current, id: 9, revision: 1 };
    store.dispatch(storiesActions.savedInAnotherTab(elsewhere));
    store.dispatch(
      storiesActions.storySavedAsBranch({ ...branch, from: 4, manual: true, storyGeneration: 1 }),
    );
    expect(store.getState().stories.current).toEqual(branch);
    expect(otherTab()).toEqual({ status: 'branched', storyId: 4, branchId: 9 });
    // A manual save that split says so through this word, not 'Game saved successfully!'.
    expect(store.getState().stories.notice?.kind).toBe('loaded');
    store.dispatch(storiesActions.savedInAnotherTab({ ...elsewhere, revision: 4 }));
    store.dispatch(
      storiesActions.storySaved({ ...branch, revision: 2, manual: false, storyGeneration: 1 }),
    );
    expect(otherTab()).toEqual({ status: 'branched', storyId: 4, branchId: 9 });
  });

  test('a split reported after the player moved on to another story changes nothing', () => {
    store.dispatch(gameActions.apiKeyAccepted('sk'));
    store.dispatch(gameActions.newGameStarted());
    store.dispatch(
      storiesActions.storySavedAsBranch({
        ...current,
        id: 9,
        from: 4,
        manual: false,
        storyGeneration: 1,
      }),
    );
    expect(store.getState().stories.current).toBeNull();
    expect(otherTab()).toBeNull();
  });

  test('it goes when the player keeps playing here, loads a story, or starts a new one', () => {
    const hear = () => store.dispatch(storiesActions.savedInAnotherTab(elsewhere));
    hear();
    store.dispatch(storiesActions.otherTabNoticeDismissed());
    expect(otherTab()).toBeNull();
    hear();
    store.dispatch(storiesActions.storyLoaded({ ...current, ...elsewhere }));
    expect(otherTab()).toBeNull();
    store.dispatch(storiesActions.storyLoaded(current));
    hear();
    store.dispatch(gameActions.apiKeyAccepted('sk'));
    store.dispatch(gameActions.newGameStarted());
    expect(otherTab()).toBeNull();
  });
});

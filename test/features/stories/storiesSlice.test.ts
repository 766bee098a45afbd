import { makeStore } from '../../../src/app/store';
import { gameActions } from '../../../src/features/game';
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
  game: {},
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
  const saved = (manual: boolean, storyGeneration = 0) =>
    storiesActions.storySaved({ id: 4, walletAddress: '0xabc', manual, storyGeneration });
  store.dispatch(storiesActions.storySaveFailed('quota'));
  store.dispatch(saved(false));
  // A quiet auto-save says nothing, but a save that works again clears the failure.
  expect(store.getState().stories.notice).toBeNull();
  expect(store.getState().stories.current).toEqual({ id: 4, walletAddress: '0xabc' });
  store.dispatch(saved(true));
  expect(store.getState().stories.notice?.kind).toBe('saved');
  store.dispatch(gameActions.apiKeyAccepted('sk'));
  store.dispatch(gameActions.newGameStarted());
  expect(store.getState().stories.current).toBeNull();
  // The old story's save finishing late does not make its record the new story's.
  store.dispatch(saved(false, 0));
  expect(store.getState().stories.current).toBeNull();
  store.dispatch(saved(false, 1));
  expect(store.getState().stories.current).toEqual({ id: 4, walletAddress: '0xabc' });
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

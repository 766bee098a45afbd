/**
 * The saved record follows the story the game plays: Start New Game is a command the game may
 * refuse (on the key screen), so the stories let go of the current record only on the game's
 * word that it has taken a new story (game/newStoryBegun). A real store, its flows running.
 */
import { makeStore } from '../../../src/app/store';
import { gameActions, selectGameStage } from '../../../src/features/game';
import { initialStoriesState } from '../../../src/features/stories';
import { PLAYING_GAME, gameAt } from '../../fixtures/games';

const RECORD = { id: 4, walletAddress: '0xabc', revision: 2, lastSaved: '2026-11-21T10:00:00Z' };
const stories = { ...initialStoriesState, current: RECORD };

let store: ReturnType<typeof makeStore>;
afterEach(() => store.stop());

test('a new game the game refuses keeps the story’s record', () => {
  // The key screen: no key accepted yet, so there is no game to start.
  store = makeStore({
    preloadedState: { game: gameAt({ turn: { phase: 'keyNeeded' } }), stories },
  });
  store.dispatch(gameActions.newGameStarted());
  expect(selectGameStage(store.getState())).toBe('apiKeyInput');
  expect(store.getState().stories.current).toEqual(RECORD);
  expect(store.getState().stories.storyGeneration).toBe(0);
});

test('a new game the game takes starts without a record, once', () => {
  store = makeStore({ preloadedState: { game: gameAt(PLAYING_GAME), stories } });
  store.dispatch(gameActions.newGameStarted());
  expect(selectGameStage(store.getState())).toBe('genreSelection');
  expect(store.getState().stories.current).toBeNull();
  expect(store.getState().stories.storyGeneration).toBe(1);
});

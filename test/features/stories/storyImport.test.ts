import { makeStore } from '../../../src/app/store';
import { INITIAL_PLAYER_STATS } from '../../../src/engine/types';
import { gameActions, initialGameState, selectStory } from '../../../src/features/game';
import { parseStoryJson, storyToJson, type SavedStory } from '../../../src/features/stories';
import { storyOf } from '../../../src/features/stories/storyRecord';
import { savedStory } from '../../fixtures/savedStories';

const WILD_STATS = {
  moralScore: 250,
  riskScore: 1e9,
  traitConsistency: -40,
  creativity: Number.NaN,
  successRate: '100',
};

/** A story export file whose stats were edited by hand. */
function exportWith(playerStats: unknown): string {
  const envelope = JSON.parse(storyToJson(savedStory()));
  envelope.story.game.playerStats = playerStats;
  // NaN has no JSON spelling; a file can hold it only as something else, here null.
  return JSON.stringify(envelope);
}

describe('importing a story with edited stats', () => {
  test('saves its stats inside the spec’s ranges', () => {
    expect(parseStoryJson(exportWith(WILD_STATS)).game.playerStats).toEqual({
      moralScore: 100,
      riskScore: 100,
      traitConsistency: 0,
      creativity: 0,
      successRate: 0,
    });
  });

  test('leaves a file without stats as it is: the story keeps its start stats, none made up', () => {
    expect(parseStoryJson(exportWith(undefined)).game.playerStats).toEqual(INITIAL_PLAYER_STATS);
  });

  test('resumes with stats in range', () => {
    const imported = { id: 1, ...parseStoryJson(exportWith(WILD_STATS)) } as SavedStory;
    const game = storyOf(imported);
    if (!game) throw new Error('the import should be resumable');
    const store = makeStore({
      preloadedState: { game: { ...initialGameState, turn: { phase: 'home' }, apiKey: 'sk' } },
    });
    store.dispatch(gameActions.savedStoryResumed(game));
    expect(selectStory(store.getState()).playerStats).toEqual({
      moralScore: 100,
      riskScore: 100,
      traitConsistency: 0,
      creativity: 0,
      successRate: 0,
    });
    store.stop();
  });
});

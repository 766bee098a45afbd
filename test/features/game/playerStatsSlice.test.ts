import { makeStore } from '../../../src/app/store';
import {
  gameActions,
  initialGameState,
  restoreGame,
  selectPlayerStats,
} from '../../../src/features/game';
import { PLAYING_GAME } from '../../fixtures/games';

/** A stored game, as a saved or imported record holds it, with the stats given. */
function storedGame(playerStats: unknown) {
  const game = restoreGame({ ...PLAYING_GAME, turnCount: 3, playerStats });
  if (!game) throw new Error('PLAYING_GAME should restore');
  return { ...game, playerStats } as Parameters<typeof gameActions.savedStoryResumed>[0];
}

function resumedStats(playerStats: unknown) {
  const store = makeStore({
    preloadedState: { game: { ...initialGameState, stage: 'loadOrCreate', apiKey: 'sk' } },
  });
  store.dispatch(gameActions.savedStoryResumed(storedGame(playerStats)));
  const stats = selectPlayerStats(store.getState()).playerStats;
  store.stop();
  return stats;
}

describe('playerStats of a resumed story', () => {
  test('come back as saved when they are in range', () => {
    const saved = {
      moralScore: -30,
      riskScore: 21,
      traitConsistency: 7,
      creativity: 8,
      successRate: 50,
    };
    expect(resumedStats(saved)).toEqual(saved);
  });

  test('come back inside the spec’s ranges, whatever the record held', () => {
    expect(
      resumedStats({
        moralScore: -1e9,
        riskScore: 1e9,
        traitConsistency: Number.NaN,
        creativity: '80',
        successRate: -5,
      }),
    ).toEqual({
      moralScore: -100,
      riskScore: 100,
      traitConsistency: 0,
      creativity: 0,
      successRate: 0,
    });
  });
});

import {
  RECENT_GAMES,
  summarizeResults,
  type SavedResult,
} from '../../../src/features/profile/profileStats';

const result = (score: number, createdAt: string, turnCount?: unknown): SavedResult => ({
  score,
  created_at: createdAt,
  detailed_stats: turnCount === undefined ? null : { turnCount },
});

describe('summarizeResults', () => {
  test('adds up games, scores and turns, and finds the high score', () => {
    const stats = summarizeResults([
      result(120, '2025-06-01T10:00:00Z', 9),
      result(340, '2025-06-03T10:00:00Z', 14),
      result(75, '2025-06-02T10:00:00Z', 7),
    ]);
    expect(stats).toMatchObject({
      totalGames: 3,
      totalScore: 535,
      totalTurns: 30,
      highScore: 340,
    });
  });

  test('lists the most recent games first, at most five', () => {
    const days = [4, 1, 7, 3, 6, 2, 5];
    const stats = summarizeResults(
      days.map((day) => result(day * 10, `2025-06-0${day}T12:00:00Z`, day)),
    );
    expect(RECENT_GAMES).toBe(5);
    expect(stats.recentGames).toEqual([
      { date: '2025-06-07T12:00:00Z', score: 70, turns: 7 },
      { date: '2025-06-06T12:00:00Z', score: 60, turns: 6 },
      { date: '2025-06-05T12:00:00Z', score: 50, turns: 5 },
      { date: '2025-06-04T12:00:00Z', score: 40, turns: 4 },
      { date: '2025-06-03T12:00:00Z', score: 30, turns: 3 },
    ]);
    // Totals still count every game, not only the recent ones.
    expect(stats.totalGames).toBe(7);
    expect(stats.totalScore).toBe(280);
  });

  test('a result without a usable turn count counts no turns', () => {
    const stats = summarizeResults([
      result(10, '2025-06-01T10:00:00Z'),
      result(20, '2025-06-02T10:00:00Z', 'many'),
      result(30, '2025-06-03T10:00:00Z', -4),
      result(40, '2025-06-04T10:00:00Z', '6'),
    ]);
    expect(stats.totalTurns).toBe(6);
    expect(stats.recentGames.map((game) => game.turns)).toEqual([6, 0, 0, 0]);
  });

  test('no results give zeros and no recent games', () => {
    expect(summarizeResults([])).toEqual({
      totalGames: 0,
      totalScore: 0,
      totalTurns: 0,
      highScore: 0,
      recentGames: [],
    });
  });

  test('leaves its input in the order it came', () => {
    const results = [result(1, '2025-06-01T00:00:00Z'), result(2, '2025-06-02T00:00:00Z')];
    summarizeResults(results);
    expect(results.map((r) => r.score)).toEqual([1, 2]);
  });
});

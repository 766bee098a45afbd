/** SPEC.md section 2, Profile: Game Statistics from the player's saved results. */
export interface SavedResult {
  score: number;
  created_at: string;
  detailed_stats: { turnCount?: unknown } | null;
}

export interface RecentGame {
  date: string;
  score: number;
  turns: number;
}

export interface ProfileStats {
  totalGames: number;
  totalScore: number;
  totalTurns: number;
  highScore: number;
  recentGames: RecentGame[];
}

export const RECENT_GAMES = 5;

const turnsOf = (result: SavedResult) => {
  const turns = Number(result.detailed_stats?.turnCount);
  return Number.isFinite(turns) && turns > 0 ? turns : 0;
};

/** Totals over every result, and the most recent games first. */
export function summarizeResults(results: readonly SavedResult[]): ProfileStats {
  const newestFirst = [...results].sort(
    (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
  );
  return {
    totalGames: results.length,
    totalScore: results.reduce((sum, result) => sum + result.score, 0),
    totalTurns: results.reduce((sum, result) => sum + turnsOf(result), 0),
    highScore: results.reduce((high, result) => Math.max(high, result.score), 0),
    recentGames: newestFirst
      .slice(0, RECENT_GAMES)
      .map((result) => ({ date: result.created_at, score: result.score, turns: turnsOf(result) })),
  };
}

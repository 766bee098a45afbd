// The leaderboard feature's public API. LeaderboardPage is left out on purpose: the routes load
// it by its own path, so it and its styles stay in their own chunk.
export { SaveResultButton } from './SaveResultButton';
export type { SaveResultButtonProps } from './SaveResultButton';
export { LEADERBOARD_SIZE, leaderboardApi, useGetLeaderboardQuery } from './leaderboardApi';
export type { LeaderboardEntry } from './leaderboardApi';
export {
  DUPLICATE_WINDOW_MS,
  SAVE_RESULT_ERRORS,
  resultsApi,
  useSaveGameResultMutation,
} from './resultsApi';
export type { GameResult, SaveResultOutcome, SaveResultRequest } from './resultsApi';

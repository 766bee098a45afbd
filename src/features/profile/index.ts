// The profile feature's public API. ProfilePage is left out on purpose: the routes load it by
// its own path, so it and its styles stay in their own chunk.
export {
  profileApi,
  useConfirmFollowMutation,
  useGetProfileStatsQuery,
  useGetUserQuery,
  useUpdateUsernameMutation,
} from './profileApi';
export type { UserProfile } from './profileApi';
export { RECENT_GAMES, summarizeResults } from './profileStats';
export type { ProfileStats, RecentGame, SavedResult } from './profileStats';

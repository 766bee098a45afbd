import { backendOf, baseApi, fromSupabase, type WalletSession } from '../../api';
import { summarizeResults, type ProfileStats, type SavedResult } from './profileStats';

/** The player's row (SPEC.md section 3, users), as the profile reads it. */
export interface UserProfile {
  username: string | null;
  twitter_followed: boolean;
}

export const profileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<UserProfile, WalletSession>({
      async queryFn(session, { extra }) {
        const client = (await backendOf(extra)).forWallet(session);
        return fromSupabase<UserProfile>(
          client
            .from('users')
            .select('username, twitter_followed')
            .eq('wallet_address', session.address)
            .single(),
        );
      },
      providesTags: ['User'],
    }),
    updateUsername: build.mutation<null, { session: WalletSession; username: string }>({
      async queryFn({ session, username }, { extra }) {
        const client = (await backendOf(extra)).forWallet(session);
        return fromSupabase(
          client.from('users').update({ username }).eq('wallet_address', session.address),
        );
      },
      invalidatesTags: ['User'],
    }),
    confirmFollow: build.mutation<null, WalletSession>({
      async queryFn(session, { extra }) {
        const client = (await backendOf(extra)).forWallet(session);
        return fromSupabase(
          client
            .from('users')
            .update({ twitter_followed: true })
            .eq('wallet_address', session.address),
        );
      },
      invalidatesTags: ['User'],
    }),
    getProfileStats: build.query<ProfileStats, WalletSession>({
      async queryFn(session, { extra }) {
        const client = (await backendOf(extra)).forWallet(session);
        const results = await fromSupabase<SavedResult[]>(
          client
            .from('game_results')
            .select('score, detailed_stats, created_at')
            .eq('wallet_address', session.address),
        );
        return 'error' in results ? results : { data: summarizeResults(results.data) };
      },
      providesTags: ['GameResults'],
    }),
  }),
});

export const {
  useGetUserQuery,
  useUpdateUsernameMutation,
  useConfirmFollowMutation,
  useGetProfileStatsQuery,
} = profileApi;

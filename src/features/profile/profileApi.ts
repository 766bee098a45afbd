import { backendOf, baseApi, fromSupabase, type BackendClient, type BackendError } from '../../api';
import { walletSessionOf } from '../wallet';
import { summarizeResults, type ProfileStats, type SavedResult } from './profileStats';

/** The player's row (SPEC.md section 3, users), as the profile reads it. */
export interface UserProfile {
  username: string | null;
  twitter_followed: boolean;
}

/** What an endpoint answers when the store holds no verified session for its address. */
export const NO_SESSION = 'noSession';

/**
 * The wallet's client, its token asked of the wallet as the request leaves (as resultsApi does),
 * never carried in the arguments: those are RTK Query's cache keys, kept in the state and shown
 * by DevTools. The address is the argument, so each wallet has its own cache entries; an
 * account still signing in, or whose token ran out, has no client.
 */
async function clientFor(
  extra: unknown,
  address: string,
): Promise<{ client: BackendClient } | { error: BackendError }> {
  const session = walletSessionOf(extra);
  if (session?.address !== address) {
    return { error: { code: NO_SESSION, message: `No verified wallet session for ${address}` } };
  }
  return { client: (await backendOf(extra)).forWallet(session) };
}

export const profileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<UserProfile, string>({
      async queryFn(address, { extra }) {
        const wallet = await clientFor(extra, address);
        if ('error' in wallet) return wallet;
        return fromSupabase<UserProfile>(
          wallet.client
            .from('users')
            .select('username, twitter_followed')
            .eq('wallet_address', address)
            .single(),
        );
      },
      providesTags: ['User'],
    }),
    updateUsername: build.mutation<null, { address: string; username: string }>({
      async queryFn({ address, username }, { extra }) {
        const wallet = await clientFor(extra, address);
        if ('error' in wallet) return wallet;
        return fromSupabase(
          wallet.client.from('users').update({ username }).eq('wallet_address', address),
        );
      },
      invalidatesTags: ['User'],
    }),
    confirmFollow: build.mutation<null, string>({
      async queryFn(address, { extra }) {
        const wallet = await clientFor(extra, address);
        if ('error' in wallet) return wallet;
        return fromSupabase(
          wallet.client
            .from('users')
            .update({ twitter_followed: true })
            .eq('wallet_address', address),
        );
      },
      invalidatesTags: ['User'],
    }),
    getProfileStats: build.query<ProfileStats, string>({
      async queryFn(address, { extra }) {
        const wallet = await clientFor(extra, address);
        if ('error' in wallet) return wallet;
        const results = await fromSupabase<SavedResult[]>(
          wallet.client
            .from('game_results')
            .select('score, detailed_stats, created_at')
            .eq('wallet_address', address),
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

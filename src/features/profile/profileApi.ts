import { backendOf, baseApi, fromSupabase, type WalletSession } from '../../api';
import { summarizeResults, type ProfileStats, type SavedResult } from './profileStats';

/** The player's row (SPEC.md section 3, users), as the profile reads it. */
export interface UserProfile {
  username: string | null;
  twitter_followed: boolean;
}

/** A row of create_user_if_not_exists: the nonce to sign, or null when only ensured. */
export interface EnsuredUser {
  wallet_address: string;
  username: string | null;
  twitter_followed: boolean;
  nonce: string | null;
}

export const profileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** SPEC.md section 7: before signing, the user row and a fresh nonce (anon client). */
    requestNonce: build.mutation<EnsuredUser, { address: string }>({
      async queryFn({ address }, { extra }) {
        const { anon } = await backendOf(extra);
        const rows = await fromSupabase<EnsuredUser[]>(
          anon.rpc('create_user_if_not_exists', { p_wallet_address: address.toLowerCase() }),
        );
        if ('error' in rows) return rows;
        const [row] = rows.data;
        return row
          ? { data: row }
          : { error: { message: 'create_user_if_not_exists returned no row' } };
      },
    }),
    /** After signing: make sure the row exists, as the signed-in wallet (p_nonce null). */
    ensureUser: build.mutation<null, WalletSession>({
      async queryFn(session, { extra }) {
        const client = (await backendOf(extra)).forWallet(session);
        const result = await fromSupabase(
          client.rpc('create_user_if_not_exists', {
            p_wallet_address: session.address,
            p_nonce: null,
          }),
        );
        return 'error' in result ? result : { data: null };
      },
      invalidatesTags: ['User'],
    }),
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

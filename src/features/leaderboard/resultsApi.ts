import { backendOf, baseApi, fromSupabase, type BackendError } from '../../api';
import type { GameResult } from '../game';
import { walletSessionOf } from '../wallet';

/** SPEC.md section 4: the same result saved again within 24 hours is a duplicate. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** SQLSTATE the server answers a duplicate with (the database's own rule, race-free). */
const UNIQUE_VIOLATION = '23505';

/** What a finished game posts to the leaderboard: the game's own (SPEC.md section 3). */
export type { GameResult };

export interface SaveResultRequest {
  /** The wallet account the header shows, if any (lowercased before sending). */
  address: string | null;
  result: GameResult;
  /** The story it came from, by its cloud id: the leaderboard links it while it is published. */
  storyId?: string | null;
}

/** 'duplicate' is the spec's warning 'This result has already been saved recently.' */
export type SaveResultOutcome = 'saved' | 'duplicate';

/** Errors the ending screen names from the catalogue; others carry the backend's message. */
export const SAVE_RESULT_ERRORS = { noWallet: 'noWallet', noToken: 'noToken' } as const;

interface SavedRow {
  score: number;
  created_at: string;
}

export const resultsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    saveGameResult: build.mutation<SaveResultOutcome, SaveResultRequest>({
      async queryFn({ address, result, storyId }, { extra }) {
        if (!address) return { error: { code: SAVE_RESULT_ERRORS.noWallet, message: '' } };
        const wallet = address.toLowerCase();
        // The token is asked of the wallet as the request leaves, never carried in the
        // request's arguments (they stay in RTK Query's state); an account still signing in,
        // or whose token ran out, has none.
        const session = walletSessionOf(extra);
        if (session?.address !== wallet) {
          return { error: { code: SAVE_RESULT_ERRORS.noToken, message: '' } };
        }
        const client = (await backendOf(extra)).forWallet(session);

        // SPEC.md section 5, duplicate rule: checked here to warn early; the database
        // enforces it too, so a client that skips this is still refused.
        const earlier = await fromSupabase<SavedRow[]>(
          client
            .from('game_results')
            .select('score, created_at')
            .eq('wallet_address', wallet)
            .eq('character_name', result.character_name)
            .eq('ending_type', result.ending_type),
        );
        if ('error' in earlier) return earlier;
        const since = Date.now() - DUPLICATE_WINDOW_MS;
        const duplicate = earlier.data.some(
          (row) => row.score === result.score && Date.parse(row.created_at) > since,
        );
        if (duplicate) return { data: 'duplicate' };

        const inserted = await fromSupabase(
          client
            .from('game_results')
            .insert({ wallet_address: wallet, ...result, ...(storyId && { story_id: storyId }) }),
        );
        if ('error' in inserted) {
          const error: BackendError = inserted.error;
          return error.code === UNIQUE_VIOLATION ? { data: 'duplicate' } : { error };
        }
        return { data: 'saved' };
      },
      invalidatesTags: (outcome) => (outcome === 'saved' ? ['Leaderboard', 'GameResults'] : []),
    }),
  }),
});

export const { useSaveGameResultMutation } = resultsApi;

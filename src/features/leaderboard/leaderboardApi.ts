import { backendOf, baseApi, fromSupabase } from '../../api';

/** SPEC.md section 9: the leaderboard shows the top 20. */
export const LEADERBOARD_SIZE = 20;

/** A row of the `leaderboard` view (SPEC.md section 3). */
export interface LeaderboardEntry {
  wallet_address: string;
  score: number;
  ending_type: string;
  character_name: string;
  created_at: string;
  genre: string;
  turn_count: number;
  /** How many times the game had a turn written again; 0 on older results. */
  rewrites: number;
  /** The story the result came from, while its player has it published (/story/<id>). */
  published_story_id: string | null;
}

export const leaderboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getLeaderboard: build.query<LeaderboardEntry[], void>({
      async queryFn(_arg, { extra }) {
        const { anon } = await backendOf(extra);
        return fromSupabase<LeaderboardEntry[]>(
          anon
            .from('leaderboard')
            .select('*')
            .order('score', { ascending: false })
            .limit(LEADERBOARD_SIZE),
        );
      },
      providesTags: ['Leaderboard'],
    }),
  }),
});

export const { useGetLeaderboardQuery } = leaderboardApi;

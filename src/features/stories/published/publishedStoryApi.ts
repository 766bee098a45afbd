import { isStoryId } from '../../../../common/publishedStory';
import { backendOf, baseApi, fromSupabase } from '../../../api';
import type { Language, Outcome } from '../../../engine/types';
import { portraitNumber } from '../../game';

/** A row of `published_stories` (migration 20261127000000_cloud_stories.sql) as it comes. */
interface PublishedStoryRow {
  id: string;
  language: string;
  genre: string;
  portrait: number;
  character_name: string;
  author: string;
  entries: { kind: string; text: string | null; outcome: unknown }[];
  recap: Partial<Record<keyof PublishedRecap, string | null>> | null;
  score: number | null;
  ending_type: string;
  turn_count: number;
  published_at: string;
}

/** A paragraph of the model's, or what the player chose and how it went. */
export type PublishedEntry =
  { kind: 'paragraph'; text: string } | { kind: 'choice'; text: string; outcome: Outcome | null };

/** The ending screen's recap, as the model wrote it. */
export interface PublishedRecap {
  wrapUpParagraph: string;
  bigMoment: string;
  frequentActivity: string;
  characterTraitHighlight: string;
  themeExploration: string;
}

/** What anyone may read of a published story (DESIGN.md, "Cloud saves and published stories"). */
export interface PublishedStory {
  id: string;
  /** The language it was played in: the page speaks it. */
  language: Language;
  genre: string;
  /** One of the 32 portraits. */
  portrait: number;
  characterName: string;
  /** The wallet's short form, 0x1234…abcd. */
  author: string;
  entries: PublishedEntry[];
  recap: PublishedRecap | null;
  score: number | null;
  endingType: string;
  turnCount: number;
  publishedAt: string;
}

const OUTCOMES: readonly Outcome[] = ['success', 'partial', 'failure'];

/** SUCCESS / PARTIAL / FAILURE in either case, as the game's log or an older one wrote them. */
function outcomeOf(value: unknown): Outcome | null {
  const outcome = typeof value === 'string' ? value.toLowerCase() : null;
  return OUTCOMES.find((known) => known === outcome) ?? null;
}

/** The row as the page reads it: plain data in the game's own words, every text a string. */
export function readPublishedStory(row: PublishedStoryRow): PublishedStory {
  const recap = row.recap;
  return {
    id: row.id,
    language: row.language === 'kr' ? 'kr' : 'en',
    genre: row.genre,
    portrait: portraitNumber(row.portrait) ?? 1,
    characterName: row.character_name,
    author: row.author,
    entries: (Array.isArray(row.entries) ? row.entries : []).map((entry): PublishedEntry =>
      entry.kind === 'choice'
        ? { kind: 'choice', text: entry.text ?? '', outcome: outcomeOf(entry.outcome) }
        : { kind: 'paragraph', text: entry.text ?? '' },
    ),
    recap:
      recap === null
        ? null
        : {
            wrapUpParagraph: recap.wrapUpParagraph ?? '',
            bigMoment: recap.bigMoment ?? '',
            frequentActivity: recap.frequentActivity ?? '',
            characterTraitHighlight: recap.characterTraitHighlight ?? '',
            themeExploration: recap.themeExploration ?? '',
          },
    score: row.score,
    endingType: row.ending_type,
    turnCount: row.turn_count,
    publishedAt: row.published_at,
  };
}

/**
 * A picture of a published story (migration 20261128000000_story_pictures.sql), without its
 * bytes: the turn it shows (0 the opening, -1 the ending, 1 on a moment) and its alt text.
 */
export interface PublishedPicture {
  turn: number;
  width: number;
  height: number;
  alt: string;
  mediaType: string;
}

interface PublishedPictureRow {
  turn: number;
  width: number;
  height: number;
  alt: string;
  media_type: string;
}

export const publishedStoryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The published story by its id; null when none is published by it (any more). */
    getPublishedStory: build.query<PublishedStory | null, string>({
      async queryFn(id, { extra }) {
        // Not a story's id: no story to ask for (the database would refuse it as a uuid).
        if (!isStoryId(id)) return { data: null };
        const { anon } = await backendOf(extra);
        const result = await fromSupabase<PublishedStoryRow[]>(
          anon.from('published_stories').select('*').eq('id', id).limit(1),
        );
        if ('error' in result) return result;
        const row = result.data[0];
        return { data: row === undefined ? null : readPublishedStory(row) };
      },
    }),
    /** The published story's pictures in turn order, without their bytes (anyone may read them). */
    getPublishedPictures: build.query<PublishedPicture[], string>({
      async queryFn(id, { extra }) {
        if (!isStoryId(id)) return { data: [] };
        const { anon } = await backendOf(extra);
        const result = await fromSupabase<PublishedPictureRow[]>(
          anon
            .from('story_pictures')
            .select('turn,width,height,alt,media_type')
            .eq('story_id', id)
            .order('turn'),
        );
        if ('error' in result) return result;
        return {
          data: result.data.map((row) => ({
            turn: row.turn,
            width: row.width,
            height: row.height,
            alt: row.alt,
            mediaType: row.media_type,
          })),
        };
      },
    }),
    /** One picture's bytes, base64 (one at a time: a story may have 40 of them). */
    getPublishedPictureData: build.query<string | null, { storyId: string; turn: number }>({
      async queryFn({ storyId, turn }, { extra }) {
        const { anon } = await backendOf(extra);
        const result = await fromSupabase<{ data: string }[]>(
          anon.from('story_pictures').select('data').eq('story_id', storyId).eq('turn', turn),
        );
        if ('error' in result) return result;
        // PostgreSQL's own base64 breaks lines; what the browser decodes has none.
        return { data: result.data[0]?.data.replace(/\s+/g, '') ?? null };
      },
    }),
  }),
});

export const {
  useGetPublishedStoryQuery,
  useGetPublishedPicturesQuery,
  useGetPublishedPictureDataQuery,
} = publishedStoryApi;

// The wallet's stories in the cloud, through the backend (migration
// 20261127000000_cloud_stories.sql): a save sends the record without its lists and the list
// entries that changed, and is refused when the story moved on elsewhere; a story comes down as
// its record and its parts; a delete and a publish act on one story. Every call names what went
// wrong as a CloudProblem. Row-level security makes them the signed-in wallet's only.
import type { BackendClient } from '../../../api';
import type { Story } from '../../game';
import type { SavedStory } from '../savedStory';
import { STORY_PART_LISTS, type ListEntry, type PartList } from '../storyLists';
import type { CloudProblem, CloudStory } from './cloudModel';

/** A refusal or failure of the cloud, and how long to wait before trying again, if it said. */
export class CloudError extends Error {
  override readonly name = 'CloudError';
  constructor(
    readonly problem: CloudProblem,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

interface PostgrestFailure {
  error: { code?: string; message?: string } | null;
  status: number;
}

/** The problem in a PostgREST answer (supabase-js resolves failures, it does not throw). */
function problemOf({ error, status }: PostgrestFailure): CloudError {
  const code = error?.code ?? '';
  const message = error?.message ?? `HTTP ${status}`;
  if (code === 'story_too_large' || status === 413) return new CloudError('tooLarge', message);
  if (code === 'story_limit') return new CloudError('limit', message);
  if (status === 429) {
    const seconds = Number(/retry in (\d+) seconds/i.exec(message)?.[1] ?? 60);
    return new CloudError('rateLimited', message, seconds * 1000);
  }
  if (status === 401 || code === 'PGRST301' || code === 'PGRST303') {
    return new CloudError('signedOut', message);
  }
  // No answer at all (supabase-js reports a failed fetch as status 0), or the server is down.
  if (status === 0 || status >= 500) return new CloudError('unreachable', message);
  return new CloudError('failed', message);
}

function checked<T extends PostgrestFailure>(answer: T): T {
  if (answer.error) throw problemOf(answer);
  return answer;
}

/** The saved record without its lists: what stories.head holds. */
export type CloudHead = Omit<SavedStory, 'id' | 'walletAddress' | 'revision' | 'cloud' | 'game'> & {
  game: Partial<Story>;
};

export interface CloudSave {
  id: string;
  /** The cloud's revision this save was made on (0 for a story new to the cloud). */
  baseRevision: number;
  savedAt: string;
  language: string;
  head: CloudHead;
  lengths: Partial<Record<PartList, number>>;
  parts: ListEntry[];
  copyOf?: string | null;
}

/** Saves one story; `saved: false` when the cloud's story is at `revision` (0: it has none). */
export async function saveToCloud(
  client: BackendClient,
  save: CloudSave,
): Promise<{ saved: boolean; revision: number }> {
  const { data } = checked(
    await client.rpc('save_story', {
      p_id: save.id,
      p_base_revision: save.baseRevision,
      p_saved_at: save.savedAt,
      p_language: save.language,
      p_head: save.head,
      p_lengths: save.lengths,
      p_parts: save.parts,
      p_copy_of: save.copyOf ?? null,
    }),
  );
  const [row] = (data ?? []) as { saved: boolean; revision: number }[];
  if (!row) throw new CloudError('failed', 'save_story answered no row');
  return row;
}

interface StoryRow {
  id: string;
  revision: number;
  saved_at: string;
  head: Record<string, unknown>;
  copy_of: string | null;
  published_at: string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function cloudStoryOf(row: StoryRow): CloudStory {
  const { head } = row;
  const game = (head.game ?? {}) as Partial<Story>;
  return {
    id: row.id,
    revision: row.revision,
    savedAt: row.saved_at,
    copyOf: row.copy_of,
    publishedAt: row.published_at,
    chosenCharacter: text(head.chosenCharacter),
    chosenGenre: text(head.chosenGenre),
    characterImage: text(head.characterImage),
    previousParagraph: text(head.previousParagraph),
    isFinal: head.isFinal === true,
    endingType: text(head.endingType),
    turnCount: typeof game.turnCount === 'number' ? game.turnCount : 0,
  };
}

/** The wallet's stories in the cloud, newest first (at most the 100 a wallet may keep). */
export async function listCloudStories(client: BackendClient): Promise<CloudStory[]> {
  const { data } = checked(
    await client
      .from('stories')
      .select('id,revision,saved_at,head,copy_of,published_at')
      .order('saved_at', { ascending: false })
      .limit(100),
  );
  return ((data ?? []) as StoryRow[]).map(cloudStoryOf);
}

/** Parts come down a page at a time, as PostgREST serves at most this many rows. */
const PARTS_PAGE = 1000;

/** One story whole: its record, with its lists back in `game`, and its revision. */
export async function fetchCloudStory(
  client: BackendClient,
  id: string,
): Promise<{ record: Record<string, unknown>; revision: number; savedAt: string } | null> {
  const { data } = checked(
    await client.from('stories').select('id,revision,saved_at,head').eq('id', id),
  );
  const [row] = (data ?? []) as Pick<StoryRow, 'id' | 'revision' | 'saved_at' | 'head'>[];
  if (!row) return null;
  const lists: Partial<Record<PartList, unknown[]>> = {};
  for (let from = 0; ; from += PARTS_PAGE) {
    const { data: page } = checked(
      await client
        .from('story_parts')
        .select('list,index,value')
        .eq('story_id', id)
        .order('list')
        .order('index')
        .range(from, from + PARTS_PAGE - 1),
    );
    const entries = (page ?? []) as ListEntry[];
    for (const { list, index, value } of entries) {
      if (!STORY_PART_LISTS.includes(list)) continue;
      (lists[list] ??= [])[index] = value;
    }
    if (entries.length < PARTS_PAGE) break;
  }
  const game = { ...((row.head.game ?? {}) as object), ...lists };
  return { record: { ...row.head, game }, revision: row.revision, savedAt: row.saved_at };
}

export async function deleteFromCloud(client: BackendClient, id: string): Promise<void> {
  checked(await client.from('stories').delete().eq('id', id));
}

/** Publishes or takes down one story; returns when it was published, or null. */
export async function setPublished(
  client: BackendClient,
  id: string,
  published: boolean,
): Promise<string | null> {
  const { data } = checked(await client.rpc('publish_story', { p_id: id, p_published: published }));
  const [row] = (data ?? []) as { published_at: string | null }[];
  return row?.published_at ?? null;
}

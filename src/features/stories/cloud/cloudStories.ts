// The wallet's stories in the cloud, through the backend (migration
// 20261127000000_cloud_stories.sql): a save sends the record without its lists and the list
// entries that changed, and is refused when the story moved on elsewhere; a story comes down as
// its record and its parts; a delete and a publish act on one story (the list is cloudList.ts's). Every call names what went
// wrong as a CloudProblem. Row-level security makes them the signed-in wallet's only.
import type { BackendClient } from '../../../api';
import type { Story } from '../../game';
import type { SavedStory } from '../savedStory';
import { STORY_PART_LISTS, type ListEntry, type PartList } from '../storyLists';
import { CloudError, checked, type StoryRow } from './cloudList';

export { CloudError } from './cloudList';

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

// The browser's place for saved stories (SPEC.md section 5): what a save writes in MyStoriesDB
// (browserDb.ts) and how a story is read, listed and deleted there. A save is a StoryRecord
// (storyRecord.ts), written inside one transaction that also settles a conflict with another
// tab (storyRevision.ts). The place keeps its own cache of what it holds, per connection and
// story (`acknowledged`): a save compares against it and writes only the entries that changed.
import { isRecord } from '../../engine/guards';
import type { Story } from '../game';
import {
  type StoriesDb,
  type StoriesTransaction,
  type StoredStory,
  PARTS,
  PICTURES,
  STORE,
  WHOLE_STORY_STORES,
  inTransaction,
  picturesKeyRange,
} from './browserDb';
import {
  type CloudLink,
  type SavedStory,
  type StoryDraft,
  isListable,
  newStoryId,
  sameWallet,
  walletOwner,
} from './savedStory';
import {
  type RecordProblem,
  type SaveRefusal,
  isRecordProblem,
  readRecord,
  saveRefusalOf,
} from './recordReader';
import { type StoryRecord, recordFromDraft } from './storyRecord';
import {
  STORY_PART_LISTS,
  changedEntries,
  listLengths,
  splitLists,
  type PartList,
  type StoryLists,
} from './storyLists';
import {
  FIRST_REVISION,
  type RecordStamp,
  chooseSaveTarget,
  sameStamp,
  storedStampOf,
} from './storyRevision';

/**
 * How a save went. A kept story carries the write's stamp, its place in the cloud, and the
 * record written, as the cloud's outbox takes it; `splitFrom` names the story it split from when
 * another tab had saved that one since (storyRevision.ts), else null.
 */
export type SaveResult =
  | ({
      saved: true;
      id: number;
      splitFrom: number | null;
      branchOf: number | null;
      cloudId: string;
      cloud: CloudLink;
      record: StoryRecord;
    } & RecordStamp)
  | { saved: false; reason: SaveRefusal['reason'] };

/** A save kept in the browser: what another place is sent of it. */
export type KeptStory = Extract<SaveResult, { saved: true }>;

/** A saved story that could not be read whole, named (storyRecord.ts). */
export class DamagedStoryError extends Error {
  override readonly name = 'DamagedStoryError';
  constructor(
    readonly id: number,
    readonly problem: RecordProblem,
  ) {
    super(`Saved story ${id} is damaged: ${JSON.stringify(problem)}`);
  }
}

/** What this place last wrote or read of a story's lists, and the write it was (its stamp). */
interface Acknowledged extends RecordStamp {
  lists: StoryLists;
}

/**
 * Per connection, per story: the lists as this tab last wrote or read them. A save compares
 * against them to write only the entries that changed, and only while the record is still that
 * write (another tab's save makes a branch, written whole). Kept beside the connection, never in
 * the store's state: it is this place's cache of what IndexedDB holds.
 */
const acknowledgedBy = new WeakMap<StoriesDb, Map<number, Acknowledged>>();

function acknowledged(db: StoriesDb): Map<number, Acknowledged> {
  let known = acknowledgedBy.get(db);
  if (!known) {
    known = new Map();
    acknowledgedBy.set(db, known);
  }
  return known;
}

const partsOf = (id: number) => IDBKeyRange.bound([id], [id, []]);
const partsFrom = (id: number, list: PartList, index: number) =>
  IDBKeyRange.bound([id, list, index], [id, list, Infinity]);

/**
 * Writes the story's lists into 'storyParts': against `known` (the lists as this record holds
 * them), only the entries that differ, and the tail of a list that grew shorter (a paragraph
 * written again) is deleted; without it, every entry, after any parts the id had.
 */
async function writeParts(
  tx: StoriesTransaction<'readwrite'>,
  id: number,
  lists: StoryLists,
  known: StoryLists | undefined,
): Promise<void> {
  const parts = tx.objectStore(PARTS);
  if (!known) await parts.delete(partsOf(id));
  const writes: Promise<unknown>[] = changedEntries(lists, known).map(({ list, index, value }) =>
    parts.put({ storyId: id, list, index, value }),
  );
  for (const list of STORY_PART_LISTS) {
    const length = lists[list]?.length ?? 0;
    if (known && (known[list]?.length ?? 0) > length) {
      writes.push(parts.delete(partsFrom(id, list, length)));
    }
  }
  await Promise.all(writes);
}

/**
 * Keeps one save of a story (SPEC.md section 5). A refused story (the save rule) is logged, not
 * thrown; storage failures throw a StorageError and leave the stored records as they were. A
 * story another tab has saved since `record.basedOn` is not overwritten: this save becomes a new
 * story that split from it.
 */
export async function keepInBrowser(
  db: StoriesDb,
  record: StoryRecord,
  currentWallet: string | null,
  now: Date,
): Promise<SaveResult> {
  const refusal = saveRefusalOf(record.fields);
  if (refusal) {
    console.warn('Saved story refused:', refusal);
    return { saved: false, reason: refusal.reason };
  }
  const owner = walletOwner(currentWallet);
  // A story of another wallet is saved as a new copy (SPEC.md section 5).
  const foreign = record.walletAddress !== undefined && !sameWallet(record.walletAddress, owner);
  const wanted =
    !foreign && typeof record.id === 'number' ? { id: record.id, basedOn: record.basedOn } : null;
  const lastSaved = now.toISOString();
  const stored = {
    ...record.fields,
    walletAddress: owner,
    lastSaved,
    game: record.head,
    parts: listLengths(record.lists),
  };
  const known = acknowledged(db);

  const result = await inTransaction(db, 'readwrite', async (tx) => {
    const store = tx.objectStore(STORE);
    // Read and written in one transaction, so no other tab's save can come in between.
    const before = wanted ? await store.get(wanted.id) : undefined;
    const target = chooseSaveTarget(wanted, before && storedStampOf(before), owner);
    let id: number;
    if (target.kind === 'update') {
      id = target.id;
    } else {
      // Highest id plus one, read in this transaction so two tabs cannot take the same id.
      const last = await store.openCursor(null, 'prev');
      id = (last?.key ?? 0) + 1;
    }
    const revision = target.kind === 'update' ? target.revision : FIRST_REVISION;
    const branchOf =
      target.kind === 'update' ? target.branchOf : target.kind === 'branch' ? target.from : null;
    // Only what changed since the write this record still is; anything else is written whole.
    const mine = known.get(id);
    const current =
      target.kind === 'update' && before?.parts && mine && sameStamp(mine, storedStampOf(before))
        ? mine.lists
        : undefined;
    // A story keeps its place in the cloud; a new one or a branch has none yet.
    const cloud = record.cloud ??
      (target.kind === 'update' ? before?.cloud : undefined) ?? {
        id: newStoryId(),
        revision: 0,
        sent: 0,
      };
    await store.put({ ...stored, id, revision, branchOf, cloud });
    await writeParts(tx, id, record.lists, current);
    const splitFrom = target.kind === 'branch' ? target.from : null;
    return { saved: true, id, revision, lastSaved, splitFrom, branchOf, cloud } as const;
  });
  known.set(result.id, { revision: result.revision, lastSaved, lists: record.lists });
  return { ...result, cloudId: result.cloud.id, record };
}

/** Keeps a draft (an import, a story brought down, a test's): its record is made here. */
export function saveStory(
  db: StoriesDb,
  draft: StoryDraft,
  currentWallet: string | null,
  now: Date = new Date(),
): Promise<SaveResult> {
  // A value that is no draft at all (a damaged import) is refused before it is read.
  const refusal = saveRefusalOf(draft);
  if (refusal) {
    console.warn('Saved story refused:', refusal);
    return Promise.resolve({ saved: false, reason: refusal.reason });
  }
  return keepInBrowser(db, recordFromDraft(draft), currentWallet, now);
}

/**
 * A stored record with its lists back in `game`, read in the transaction `tx`, or what is wrong
 * with it: a missing entry is never read as a shorter story.
 */
async function assembled<Mode extends IDBTransactionMode>(
  tx: StoriesTransaction<Mode>,
  value: StoredStory,
): Promise<SavedStory | RecordProblem> {
  if (!value.parts) return fromStored(value);
  const lists: Partial<Record<PartList, unknown[]>> = {};
  for (const list of STORY_PART_LISTS) {
    if (typeof value.parts[list] === 'number') lists[list] = [];
  }
  for (const part of await tx.objectStore(PARTS).getAll(partsOf(value.id))) {
    const entries = lists[part.list];
    // Only the list's saved length is the story's.
    if (entries && part.index < (value.parts[part.list] ?? 0)) entries[part.index] = part.value;
  }
  for (const [list, entries] of Object.entries(lists)) {
    const length = value.parts[list as PartList] ?? 0;
    for (let index = 0; index < length; index += 1) {
      if (!(index in entries)) return { reason: 'partMissing', list, index };
    }
  }
  return fromStored({ ...value, game: { ...value.game, ...(lists as Partial<Story>) } });
}

/**
 * Deletes a record, its parts and its pictures, in `tx` (over WHOLE_STORY_STORES): one
 * transaction, so no picture outlives its story, even when the tab closes in between.
 */
async function deleteRecord(tx: StoriesTransaction<'readwrite'>, id: number): Promise<void> {
  await Promise.all([
    tx.objectStore(STORE).delete(id),
    tx.objectStore(PARTS).delete(partsOf(id)),
    tx.objectStore(PICTURES).delete(picturesKeyRange(id)),
  ]);
}

/** A listed story: whole, or, where it is damaged, its record's fields and what is wrong. */
export type ListedStory = SavedStory & { problem?: RecordProblem };

/**
 * The wallet's complete stories, newest first (SPEC.md section 5). Its incomplete ones are
 * deleted in the same pass. A damaged story is listed with its problem, never shortened.
 */
export function listStories(db: StoriesDb, wallet: string | null): Promise<ListedStory[]> {
  const owner = walletOwner(wallet);
  return inTransaction(
    db,
    'readwrite',
    async (tx) => {
      const stored: { value: StoredStory; listed: SavedStory }[] = [];
      const incomplete: number[] = [];
      let cursor = await tx.objectStore(STORE).openCursor();
      while (cursor) {
        const listed = fromStored({ ...cursor.value, game: {} });
        if (!isRecordProblem(listed) && sameWallet(listed.walletAddress, owner)) {
          if (isListable(listed)) stored.push({ value: cursor.value, listed });
          else incomplete.push(listed.id);
        }
        cursor = await cursor.continue();
      }
      for (const id of incomplete) await deleteRecord(tx, id);
      // Whole, lists and all: the list exports them as they are (storyExport.ts).
      const stories = await Promise.all(
        stored.map(async ({ value, listed }): Promise<ListedStory> => {
          const story = await assembled(tx, value);
          return isRecordProblem(story) ? { ...listed, problem: story } : story;
        }),
      );
      return stories.sort((a, b) => b.lastSaved.localeCompare(a.lastSaved));
    },
    WHOLE_STORY_STORES,
  );
}

/**
 * One story, whole, or undefined when there is none; a damaged one throws a
 * DamagedStoryError. What it holds is what the game resumes: a save of it after this compares
 * against it and writes only what changed.
 */
export async function getStory(db: StoriesDb, id: number): Promise<SavedStory | undefined> {
  const read = await inTransaction(db, 'readonly', async (tx) => {
    const stored = await tx.objectStore(STORE).get(id);
    return stored && { story: await assembled(tx, stored), parts: stored.parts };
  });
  if (!read) return undefined;
  const { story, parts } = read;
  if (isRecordProblem(story)) throw new DamagedStoryError(id, story);
  if (parts)
    acknowledged(db).set(id, { ...storedStampOf(story), lists: splitLists(story.game).lists });
  return story;
}

export function deleteStory(db: StoriesDb, id: number): Promise<void> {
  acknowledged(db).delete(id);
  return inTransaction(db, 'readwrite', (tx) => deleteRecord(tx, id), WHOLE_STORY_STORES);
}

/** SPEC.md section 7, "list keys". */
export function storyIds(db: StoriesDb): Promise<number[]> {
  return inTransaction(db, 'readonly', (tx) => tx.objectStore(STORE).getAllKeys());
}

/**
 * After a result reaches the leaderboard, the wallet's final stories of that character with that
 * ending are deleted (SPEC.md section 4, "Saving"). Returns their ids.
 */
export function deleteFinishedStories(
  db: StoriesDb,
  wallet: string | null,
  characterName: string,
  endingType: string,
): Promise<number[]> {
  const owner = walletOwner(wallet);
  return inTransaction(
    db,
    'readwrite',
    async (tx) => {
      const deleted: number[] = [];
      let cursor = await tx.objectStore(STORE).openCursor();
      while (cursor) {
        const { id, walletAddress, isFinal, chosenCharacter, endingType: ending } = cursor.value;
        if (
          isFinal === true &&
          sameWallet(walletAddress, owner) &&
          String(chosenCharacter ?? '').trim() === characterName.trim() &&
          String(ending ?? '').trim() === endingType.trim()
        ) {
          deleted.push(id);
        }
        cursor = await cursor.continue();
      }
      for (const id of deleted) {
        acknowledged(db).delete(id);
        await deleteRecord(tx, id);
      }
      return deleted;
    },
    WHOLE_STORY_STORES,
  );
}

function fromStored(value: StoredStory): SavedStory | RecordProblem {
  const { parts: _parts, ...story } = value;
  const read = readRecord({ ...story });
  if (isRecordProblem(read)) return read;
  return { ...read, id: value.id, ...(isCloudLink(value.cloud) && { cloud: value.cloud }) };
}

function isCloudLink(value: unknown): value is CloudLink {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.revision === 'number' &&
    typeof value.sent === 'number'
  );
}

/**
 * Records where a story is kept in the cloud after a save went up or came down, without making
 * a new write of the record (its stamp stays: no other tab's line is taken for moved on). A
 * record deleted meanwhile stays deleted.
 */
export function linkToCloud(db: StoriesDb, id: number, link: CloudLink): Promise<void> {
  return inTransaction(db, 'readwrite', async (tx) => {
    const store = tx.objectStore(STORE);
    const stored = await store.get(id);
    if (stored) await store.put({ ...stored, cloud: link });
  });
}

/**
 * The wallet's stories with a save still to go up to the cloud (saved since the last one sent),
 * oldest first: what the cloud's outbox is rebuilt from when it starts. Reads the records only,
 * never their lists.
 */
export function storiesToSend(db: StoriesDb, wallet: string): Promise<number[]> {
  return inTransaction(db, 'readonly', async (tx) => {
    const waiting: { id: number; lastSaved: string }[] = [];
    let cursor = await tx.objectStore(STORE).index('walletAddress').openCursor(wallet);
    while (cursor) {
      const { id, revision = 0, cloud, lastSaved } = cursor.value;
      if (!isCloudLink(cloud) || cloud.sent < revision) waiting.push({ id, lastSaved });
      cursor = await cursor.continue();
    }
    return waiting.sort((a, b) => a.lastSaved.localeCompare(b.lastSaved)).map(({ id }) => id);
  });
}

// The saved stories in the browser (SPEC.md sections 3 "Saved story", 4 "Saving", 5 and 9):
// MyStoriesDB, store 'stories', key 'id', index 'walletAddress'. Since version 3 a story's
// growing lists (its log, its memory, its rolls) are kept beside the record, one entry per
// record in 'storyParts', so that the auto-save of turn 100 (SPEC.md section 4, "Saving": one
// or two a turn) writes the turn's few new entries, not the whole story cloned again. A record
// saved before keeps its lists inline and is read as it always was; its next save moves them
// out. What the record and its parts hold together is still SPEC.md section 3's saved story.
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';
import { isRecord } from '../../engine/guards';
import { initialStory, type Story } from '../game';
import {
  type CloudLink,
  type SavedStory,
  type StoryDraft,
  isListable,
  newStoryId,
  sameWallet,
  walletOwner,
} from './savedStory';
import { findStoryProblem, toSavedStoryShape } from './storedRecord';
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

export const STORIES_DB_NAME = 'MyStoriesDB';
export const STORIES_DB_VERSION = 3;
const STORE = 'stories';
const PARTS = 'storyParts';

/** One entry of one of a story's lists: `game[list][index]` of story `storyId`. */
export interface StoryPart {
  storyId: number;
  list: PartList;
  index: number;
  value: unknown;
}

/**
 * A record as the store holds it. `parts` (version 3 on) says which lists of `game` are kept in
 * 'storyParts', and how long each is; a record without it keeps them inline in `game`.
 */
export type StoredStory = Omit<SavedStory, 'game'> & {
  /** The story as stored: without its lists where `parts` says they are kept beside it. */
  game: Partial<Story>;
  parts?: Partial<Record<PartList, number>>;
};

interface StoriesSchema extends DBSchema {
  stories: { key: number; value: StoredStory; indexes: { walletAddress: string } };
  storyParts: { key: [number, string, number]; value: StoryPart };
}

export type StoriesDb = IDBPDatabase<StoriesSchema>;
type StoreName = 'stories' | 'storyParts';
type StoriesTransaction<Mode extends IDBTransactionMode> = IDBPTransaction<
  StoriesSchema,
  StoreName[],
  Mode
>;
type UpgradeTransaction = IDBPTransaction<StoriesSchema, StoreName[], 'versionchange'>;

export type StorageErrorReason = 'unavailable' | 'quota' | 'blocked' | 'unknown';

/** A storage failure the player is told about; `reason` picks the message. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly reason: StorageErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function toStorageError(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const name = isRecord(error) || error instanceof Error ? String(error.name) : '';
  const message = error instanceof Error ? error.message : String(error);
  switch (name) {
    case 'QuotaExceededError':
      return new StorageError('quota', `Browser storage is full: ${message}`, { cause: error });
    // Private windows and locked-down browsers refuse to open or keep the database.
    case 'SecurityError':
    case 'InvalidStateError':
      return new StorageError('unavailable', `Browser storage is unavailable: ${message}`, {
        cause: error,
      });
    default:
      return new StorageError('unknown', `Saved stories failed (${name || 'error'}): ${message}`, {
        cause: error,
      });
  }
}

/**
 * How a save went. A saved story carries the write's stamp; `splitFrom` names the story it split
 * from when another tab had saved that one since (storyRevision.ts), else null.
 */
export type SaveResult =
  | ({ saved: true; id: number; splitFrom: number | null; cloudId: string } & RecordStamp)
  | { saved: false; reason: 'notAnObject' | 'missingField' | 'previousParagraphTooShort' };

/**
 * Version 1 had the store (maybe without the index), version 2 no parts; every record is kept
 * as it is (a version-2 record moves its lists out when it is next saved).
 */
function upgradeStories(
  db: IDBPDatabase<StoriesSchema>,
  oldVersion: number,
  tx: UpgradeTransaction,
): void {
  const store = db.objectStoreNames.contains(STORE)
    ? tx.objectStore(STORE)
    : db.createObjectStore(STORE, { keyPath: 'id' });
  if (!store.indexNames.contains('walletAddress')) {
    store.createIndex('walletAddress', 'walletAddress', { unique: false });
  }
  if (!db.objectStoreNames.contains(PARTS)) {
    db.createObjectStore(PARTS, { keyPath: ['storyId', 'list', 'index'] });
  }
  // A failure here aborts the upgrade, and openDB rejects with it.
  if (oldVersion === 1) reshapeVersion1Records(tx).catch(() => undefined);
}

/** Version-1 records held the whole game state, API key included: move it under `game`, drop the key. */
async function reshapeVersion1Records(tx: UpgradeTransaction): Promise<void> {
  let cursor = await tx.objectStore(STORE).openCursor();
  while (cursor) {
    await cursor.update({ ...toSavedStoryShape({ ...cursor.value }), id: cursor.value.id });
    cursor = await cursor.continue();
  }
}

/**
 * Opens MyStoriesDB. `factory` is for tests (fake-indexeddb); the browser's own is the default.
 * Fails with a StorageError: 'unavailable' without IndexedDB, 'blocked' while another tab keeps
 * version 1 open.
 */
export function openStoriesDb(factory?: IDBFactory): Promise<StoriesDb> {
  const chosen = factory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!chosen) {
    return Promise.reject(
      new StorageError('unavailable', 'This browser offers no IndexedDB (private mode?)'),
    );
  }
  return new Promise<StoriesDb>((resolve, reject) => {
    let gaveUp = false;
    const opening = withFactory(chosen, () =>
      openDB<StoriesSchema>(STORIES_DB_NAME, STORIES_DB_VERSION, {
        upgrade: (db, oldVersion, _newVersion, tx) => upgradeStories(db, oldVersion, tx),
        blocked: (currentVersion) => {
          gaveUp = true;
          reject(
            new StorageError(
              'blocked',
              `Another tab keeps ${STORIES_DB_NAME} version ${currentVersion} open; close it to upgrade`,
            ),
          );
        },
        // A newer version in another tab waits for us: let it through.
        blocking: () => void opening.then((db) => db.close()),
      }),
    );
    opening.then(
      (db) => {
        // Opened after the other tab let go, but the caller was already told it was blocked.
        if (gaveUp) db.close();
        else resolve(db);
      },
      (error: unknown) => reject(toStorageError(error)),
    );
  }).catch((error: unknown) => Promise.reject(toStorageError(error)));
}

/** idb's openDB reads the global factory when called; swap it for that synchronous call only. */
function withFactory<T>(factory: IDBFactory, open: () => T): T {
  const previous = globalThis.indexedDB;
  if (factory === previous) return open();
  globalThis.indexedDB = factory;
  try {
    return open();
  } finally {
    globalThis.indexedDB = previous;
  }
}

/** One transaction over both stores, all or nothing: any failure aborts it and becomes a StorageError. */
async function inTransaction<Mode extends IDBTransactionMode, T>(
  db: StoriesDb,
  mode: Mode,
  work: (tx: StoriesTransaction<Mode>) => Promise<T>,
): Promise<T> {
  let tx: StoriesTransaction<Mode> | undefined;
  try {
    tx = db.transaction([STORE, PARTS], mode);
    const result = await work(tx);
    await tx.done;
    return result;
  } catch (error) {
    if (tx) {
      tx.done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted.
      }
    }
    throw toStorageError(error);
  }
}

/** What this connection last wrote of a story's lists, and the write it was (its stamp). */
interface WrittenLists extends RecordStamp {
  lists: StoryLists;
}

/**
 * Per connection, per story: the lists as this tab last wrote or read them. A save compares
 * against them to write only the entries that changed, and only while the record is still that
 * write (another tab's save makes a branch, written whole). Kept beside the connection, never
 * in the store's state: it is a cache of what IndexedDB holds.
 */
const lastWritten = new WeakMap<StoriesDb, Map<number, WrittenLists>>();

function writtenOf(db: StoriesDb): Map<number, WrittenLists> {
  let written = lastWritten.get(db);
  if (!written) {
    written = new Map();
    lastWritten.set(db, written);
  }
  return written;
}

/** Only the fields a story has (initialStory names them all): a draft's extras stay out. */
function storyFieldsOf(game: Partial<Story>): Partial<Story> {
  const fields = Object.keys(initialStory) as (keyof Story)[];
  return Object.fromEntries(
    fields.filter((field) => field in game).map((field) => [field, game[field]]),
  ) as Partial<Story>;
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
 * Saves a story (SPEC.md section 5). Refusals are logged, not thrown; storage failures throw a
 * StorageError and leave the stored records as they were. A story another tab has saved since
 * `story.basedOn` is not overwritten: this save becomes a new story that split from it.
 */
export async function saveStory(
  db: StoriesDb,
  story: StoryDraft,
  currentWallet: string | null,
  now: Date = new Date(),
): Promise<SaveResult> {
  const problem = findStoryProblem(story);
  if (problem) {
    console.warn('Saved story refused:', problem);
    return { saved: false, reason: problem.reason };
  }
  const { basedOn, cloud, ...fields } = story;
  const owner = walletOwner(currentWallet);
  // A story of another wallet is saved as a new copy (SPEC.md section 5).
  const foreign = fields.walletAddress !== undefined && !sameWallet(fields.walletAddress, owner);
  const wanted = !foreign && typeof fields.id === 'number' ? { id: fields.id, basedOn } : null;
  const lastSaved = now.toISOString();
  // The story's own fields and nothing else (never the API key), without walking its lists.
  const { head, lists } = splitLists(storyFieldsOf(fields.game));
  const record = {
    ...toSavedStoryShape({ ...fields, game: {} }),
    walletAddress: owner,
    lastSaved,
    game: head,
    parts: listLengths(lists),
  };
  const written = writtenOf(db);

  const result = await inTransaction(db, 'readwrite', async (tx) => {
    const store = tx.objectStore(STORE);
    // Read and written in one transaction, so no other tab's save can come in between.
    const stored = wanted ? await store.get(wanted.id) : undefined;
    const target = chooseSaveTarget(wanted, stored && storedStampOf(stored), owner);
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
    const known = written.get(id);
    const current =
      target.kind === 'update' && stored?.parts && known && sameStamp(known, storedStampOf(stored))
        ? known.lists
        : undefined;
    // A story keeps its place in the cloud; a new one or a branch has none yet.
    const link = cloud ??
      (target.kind === 'update' ? stored?.cloud : undefined) ?? {
        id: newStoryId(),
        revision: 0,
        sent: 0,
      };
    await store.put({ ...record, id, revision, branchOf, cloud: link });
    await writeParts(tx, id, lists, current);
    const splitFrom = target.kind === 'branch' ? target.from : null;
    return { saved: true, id, revision, lastSaved, splitFrom, cloudId: link.id } as const;
  });
  written.set(result.id, { revision: result.revision, lastSaved, lists });
  return result;
}

/** A stored record with its lists back in `game`, read in the transaction `tx`. */
async function assembled<Mode extends IDBTransactionMode>(
  tx: StoriesTransaction<Mode>,
  value: StoredStory,
): Promise<SavedStory> {
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
  // The whole story, lists and all, is read by parseStory as any stored record is.
  return fromStored({ ...value, game: { ...value.game, ...(lists as Partial<Story>) } });
}

/** Deletes a record and its parts, in `tx`. */
async function deleteRecord(tx: StoriesTransaction<'readwrite'>, id: number): Promise<void> {
  await Promise.all([tx.objectStore(STORE).delete(id), tx.objectStore(PARTS).delete(partsOf(id))]);
}

/**
 * The wallet's complete stories, newest first (SPEC.md section 5). Its incomplete ones are
 * deleted in the same pass.
 */
export function listStories(db: StoriesDb, wallet: string | null): Promise<SavedStory[]> {
  const owner = walletOwner(wallet);
  return inTransaction(db, 'readwrite', async (tx) => {
    const stored: StoredStory[] = [];
    const incomplete: number[] = [];
    let cursor = await tx.objectStore(STORE).openCursor();
    while (cursor) {
      const story = fromStored(cursor.value);
      if (sameWallet(story.walletAddress, owner)) {
        if (isListable(story)) stored.push(cursor.value);
        else incomplete.push(story.id);
      }
      cursor = await cursor.continue();
    }
    for (const id of incomplete) await deleteRecord(tx, id);
    // Whole, lists and all: the list exports them as they are (storyExport.ts).
    const stories = await Promise.all(stored.map((value) => assembled(tx, value)));
    return stories.sort((a, b) => b.lastSaved.localeCompare(a.lastSaved));
  });
}

/**
 * One story, whole. What it holds is what the game resumes: a save of it after this compares
 * against it and writes only what changed.
 */
export async function getStory(db: StoriesDb, id: number): Promise<SavedStory | undefined> {
  const story = await inTransaction(db, 'readonly', async (tx) => {
    const stored = await tx.objectStore(STORE).get(id);
    return stored && { story: await assembled(tx, stored), parts: stored.parts };
  });
  if (!story) return undefined;
  if (story.parts) {
    const { lists } = splitLists(story.story.game);
    writtenOf(db).set(id, { ...storedStampOf(story.story), lists });
  }
  return story.story;
}

export function deleteStory(db: StoriesDb, id: number): Promise<void> {
  writtenOf(db).delete(id);
  return inTransaction(db, 'readwrite', (tx) => deleteRecord(tx, id));
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
  return inTransaction(db, 'readwrite', async (tx) => {
    const deleted: number[] = [];
    let cursor = await tx.objectStore(STORE).openCursor();
    while (cursor) {
      const story = fromStored(cursor.value);
      if (
        story.isFinal &&
        sameWallet(story.walletAddress, owner) &&
        story.chosenCharacter.trim() === characterName.trim() &&
        story.endingType.trim() === endingType.trim()
      ) {
        deleted.push(story.id);
      }
      cursor = await cursor.continue();
    }
    for (const id of deleted) {
      writtenOf(db).delete(id);
      await deleteRecord(tx, id);
    }
    return deleted;
  });
}

function fromStored(value: StoredStory): SavedStory {
  const { parts: _parts, ...story } = value;
  return {
    ...toSavedStoryShape({ ...story }),
    id: value.id,
    ...(isCloudLink(value.cloud) && { cloud: value.cloud }),
  };
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
 * oldest first. Reads the records only, never their lists.
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

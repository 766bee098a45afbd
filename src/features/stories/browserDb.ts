// MyStoriesDB, the browser's place for saved stories (SPEC.md sections 3 "Saved story", 4
// "Saving", 5 and 9): opening it, its schema and upgrades, its transactions and how its failures
// are named. What is written in it, and how, is browserPlace.ts's. Store 'stories', key 'id',
// index 'walletAddress'; since version 3 a story's growing lists (its log, its memory, its
// rolls) are kept beside the record, one entry per record in 'storyParts', so that the
// auto-save of turn 100 writes the turn's few new entries, not the whole story cloned again. A
// record saved before keeps its lists inline and is read as it always was; its next save moves
// them out. Since version 4 a story's pictures (issue 41) are kept in 'pictures', one Blob per
// [storyId, turn], apart from the record and its parts: a save never reads or clones them
// (pictureStore.ts).
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';
import { isRecord } from '../../engine/guards';
import type { Story } from '../game';
import type { SavedStory } from './savedStory';
import { isRecordProblem, readRecord } from './recordReader';
import type { PartList } from './storyLists';
import type { StoryPicture } from './pictures/storyPicture';

export const STORIES_DB_NAME = 'MyStoriesDB';
export const STORIES_DB_VERSION = 4;
export const STORE = 'stories';
export const PARTS = 'storyParts';
export const PICTURES = 'pictures';

/** Every picture of story `storyId` in PICTURES: the key range [storyId, any turn]. */
export const picturesKeyRange = (storyId: number) =>
  IDBKeyRange.bound([storyId, -Infinity], [storyId, Infinity]);

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
  pictures: { key: [number, number]; value: StoryPicture };
}

export type StoriesDb = IDBPDatabase<StoriesSchema>;
type StoreName = 'stories' | 'storyParts' | 'pictures';
/** What a save touches: the record and its parts, never the pictures. */
export const STORY_STORES: StoreName[] = [STORE, PARTS];
/** What a deletion touches: a story goes with its parts and its pictures, all or nothing. */
export const WHOLE_STORY_STORES: StoreName[] = [STORE, PARTS, PICTURES];
export type StoriesTransaction<Mode extends IDBTransactionMode> = IDBPTransaction<
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
 * Version 1 had the store (maybe without the index), version 2 no parts, version 3 no pictures;
 * every record is kept as it is (a version-2 record moves its lists out when it is next saved).
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
  if (!db.objectStoreNames.contains(PICTURES)) {
    db.createObjectStore(PICTURES, { keyPath: ['storyId', 'turn'] });
  }
  // A failure here aborts the upgrade, and openDB rejects with it.
  if (oldVersion === 1) reshapeVersion1Records(tx).catch(() => undefined);
}

/**
 * Version-1 records held the whole game state, API key included: move it under `game`, drop the
 * key. A record whose story cannot be read stays as it was, to be named damaged when loaded.
 */
async function reshapeVersion1Records(tx: UpgradeTransaction): Promise<void> {
  let cursor = await tx.objectStore(STORE).openCursor();
  while (cursor) {
    const read = readRecord({ ...cursor.value });
    if (!isRecordProblem(read)) await cursor.update({ ...read, id: cursor.value.id });
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

/**
 * One transaction, all or nothing: any failure aborts it and becomes a StorageError. Over the
 * record and its parts unless `stores` says more (a deletion takes the pictures too).
 */
export async function inTransaction<Mode extends IDBTransactionMode, T>(
  db: StoriesDb,
  mode: Mode,
  work: (tx: StoriesTransaction<Mode>) => Promise<T>,
  stores: StoreName[] = STORY_STORES,
): Promise<T> {
  let tx: StoriesTransaction<Mode> | undefined;
  try {
    tx = db.transaction(stores, mode);
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

/**
 * Opens MyStoriesDB on first use and keeps it. A failed open is tried again next time, and so is
 * a connection that closed: the browser dropped it (site data cleared), or another tab's upgrade
 * asked it to go.
 */
export function openedOnce(open: () => Promise<StoriesDb>): () => Promise<StoriesDb> {
  let opening: Promise<StoriesDb> | null = null;
  const forget = () => {
    opening = null;
  };
  return () =>
    (opening ??= open().then(
      (db) => {
        db.addEventListener('close', forget);
        db.addEventListener('versionchange', forget);
        return db;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    ));
}

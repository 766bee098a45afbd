// The saved stories in the browser (SPEC.md sections 3 "Saved story", 4 "Saving", 5 and 9):
// MyStoriesDB version 2, store 'stories', key 'id', index 'walletAddress'.
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';
import { isRecord } from '../../engine/guards';
import {
  type SavedStory,
  type StoryDraft,
  isListable,
  sameWallet,
  walletOwner,
} from './savedStory';
import { findStoryProblem, toSavedStoryShape } from './storedRecord';
import { FIRST_REVISION, type RecordStamp, chooseSaveTarget, storedStampOf } from './storyRevision';

export const STORIES_DB_NAME = 'MyStoriesDB';
export const STORIES_DB_VERSION = 2;
const STORE = 'stories';

interface StoriesSchema extends DBSchema {
  stories: { key: number; value: SavedStory; indexes: { walletAddress: string } };
}

export type StoriesDb = IDBPDatabase<StoriesSchema>;
type StoriesTransaction<Mode extends IDBTransactionMode> = IDBPTransaction<
  StoriesSchema,
  ['stories'],
  Mode
>;
type UpgradeTransaction = IDBPTransaction<StoriesSchema, 'stories'[], 'versionchange'>;

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
  | ({ saved: true; id: number; splitFrom: number | null } & RecordStamp)
  | { saved: false; reason: 'notAnObject' | 'missingField' | 'previousParagraphTooShort' };

/** Version 1 had the store (maybe without the index); every record is kept. */
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

/** One transaction, all or nothing: any failure aborts it and becomes a StorageError. */
async function inTransaction<Mode extends IDBTransactionMode, T>(
  db: StoriesDb,
  mode: Mode,
  work: (tx: StoriesTransaction<Mode>) => Promise<T>,
): Promise<T> {
  let tx: StoriesTransaction<Mode> | undefined;
  try {
    tx = db.transaction(STORE, mode);
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
  const { basedOn, ...fields } = story;
  const owner = walletOwner(currentWallet);
  // A story of another wallet is saved as a new copy (SPEC.md section 5).
  const foreign = fields.walletAddress !== undefined && !sameWallet(fields.walletAddress, owner);
  const wanted = !foreign && typeof fields.id === 'number' ? { id: fields.id, basedOn } : null;
  const lastSaved = now.toISOString();
  const record = {
    ...toSavedStoryShape({ ...fields }),
    walletAddress: owner,
    lastSaved,
  };

  return inTransaction(db, 'readwrite', async (tx) => {
    const store = tx.objectStore(STORE);
    // Read and written in one transaction, so no other tab's save can come in between.
    const stored = wanted ? await store.get(wanted.id) : undefined;
    const target = chooseSaveTarget(wanted, stored && storedStampOf(fromStored(stored)), owner);
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
    await store.put({ ...record, id, revision, branchOf });
    const splitFrom = target.kind === 'branch' ? target.from : null;
    return { saved: true, id, revision, lastSaved, splitFrom } as const;
  });
}

/**
 * The wallet's complete stories, newest first (SPEC.md section 5). Its incomplete ones are
 * deleted in the same pass.
 */
export function listStories(db: StoriesDb, wallet: string | null): Promise<SavedStory[]> {
  const owner = walletOwner(wallet);
  return inTransaction(db, 'readwrite', async (tx) => {
    const stories: SavedStory[] = [];
    let cursor = await tx.objectStore(STORE).openCursor();
    while (cursor) {
      const story = fromStored(cursor.value);
      if (sameWallet(story.walletAddress, owner)) {
        if (isListable(story)) stories.push(story);
        else await cursor.delete();
      }
      cursor = await cursor.continue();
    }
    return stories.sort((a, b) => b.lastSaved.localeCompare(a.lastSaved));
  });
}

export async function getStory(db: StoriesDb, id: number): Promise<SavedStory | undefined> {
  const stored = await inTransaction(db, 'readonly', (tx) => tx.objectStore(STORE).get(id));
  return stored && fromStored(stored);
}

export function deleteStory(db: StoriesDb, id: number): Promise<void> {
  return inTransaction(db, 'readwrite', (tx) => tx.objectStore(STORE).delete(id));
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
        await cursor.delete();
        deleted.push(story.id);
      }
      cursor = await cursor.continue();
    }
    return deleted;
  });
}

function fromStored(value: SavedStory): SavedStory {
  return { ...toSavedStoryShape({ ...value }), id: value.id };
}

import type { Page } from 'playwright-core';

/**
 * Every record in MyStoriesDB's 'stories' store, read straight from IndexedDB, whole: since
 * version 3 a story's growing lists are kept entry by entry in 'storyParts' (the record's
 * `parts` says how long each is), and they are put back into `game` here as the app reads them.
 * None while the app has not created the database yet.
 */
export function storedStories<Stored>(page: Page): Promise<Stored[]> {
  return page.evaluate(
    () =>
      new Promise<Stored[]>((resolve, reject) => {
        const open = indexedDB.open('MyStoriesDB');
        let missing = false;
        // Never create the database here: that would be the test's doing, not the app's.
        open.onupgradeneeded = () => {
          missing = true;
          open.transaction?.abort();
        };
        open.onerror = () => {
          if (missing) resolve([]);
          else reject(new Error(`MyStoriesDB did not open: ${open.error?.message}`));
        };
        open.onsuccess = () => {
          const db = open.result;
          const withParts = db.objectStoreNames.contains('storyParts');
          const tx = db.transaction(
            withParts ? ['stories', 'storyParts'] : ['stories'],
            'readonly',
          );
          const records = tx.objectStore('stories').getAll();
          const parts = withParts ? tx.objectStore('storyParts').getAll() : null;
          tx.oncomplete = () => {
            db.close();
            type Part = { storyId: number; list: string; index: number; value: unknown };
            type StoredRecord = {
              id: number;
              game: Record<string, unknown>;
              parts?: Record<string, number>;
            };
            const stored = records.result as StoredRecord[];
            for (const record of stored) {
              if (!record.parts) continue;
              for (const [list, length] of Object.entries(record.parts)) {
                const entries: unknown[] = [];
                for (const part of (parts?.result ?? []) as Part[]) {
                  if (part.storyId === record.id && part.list === list && part.index < length) {
                    entries[part.index] = part.value;
                  }
                }
                record.game[list] = entries;
              }
            }
            resolve(stored as Stored[]);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** One picture MyStoriesDB keeps (issue 41), as read from its 'pictures' store. */
export interface StoredPicture {
  storyId: number;
  turn: number;
  moment: string;
  alt: string;
  /** The kept image's bytes and type (a Blob cannot leave the page). */
  size: number;
  type: string;
}

/** Every picture in MyStoriesDB's 'pictures' store; none while the store does not exist. */
export function storedPictures(page: Page): Promise<StoredPicture[]> {
  return page.evaluate(
    () =>
      new Promise<StoredPicture[]>((resolve, reject) => {
        const open = indexedDB.open('MyStoriesDB');
        let missing = false;
        open.onupgradeneeded = () => {
          missing = true;
          open.transaction?.abort();
        };
        open.onerror = () => {
          if (missing) resolve([]);
          else reject(new Error(`MyStoriesDB did not open: ${open.error?.message}`));
        };
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('pictures')) {
            db.close();
            resolve([]);
            return;
          }
          const request = db.transaction('pictures', 'readonly').objectStore('pictures').getAll();
          request.onsuccess = () => {
            db.close();
            type Kept = { storyId: number; turn: number; moment: string; alt: string; blob: Blob };
            resolve(
              (request.result as Kept[]).map(({ storyId, turn, moment, alt, blob }) => ({
                storyId,
                turn,
                moment,
                alt,
                size: blob.size,
                type: blob.type,
              })),
            );
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

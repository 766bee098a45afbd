import type { Page } from 'playwright-core';

/**
 * Every record in MyStoriesDB's 'stories' store, read straight from IndexedDB; none while the
 * app has not created the database yet.
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
          const request = db.transaction('stories', 'readonly').objectStore('stories').getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as Stored[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

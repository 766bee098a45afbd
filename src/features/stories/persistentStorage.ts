/**
 * Whether the browser has promised to keep what the game stores (DESIGN.md, "Stories the browser
 * keeps"): without that promise a browser may clear a site's storage, every saved story and the
 * API key with it (Safari does after 7 days without a visit). The flows ask through the saga
 * context (StoriesContext's `persistentStorage`), so a test answers for the browser.
 */

/**
 * What the browser has said: nothing yet ('unknown'), kept ('persisted'), not promised
 * ('notPersisted'), or no way to ask ('unsupported': a browser without navigator.storage.persist).
 */
export type StoragePersistence = 'unknown' | 'persisted' | 'notPersisted' | 'unsupported';

/** An answer the browser gave. */
export type PersistenceAnswer = Exclude<StoragePersistence, 'unknown'>;

export interface PersistentStorage {
  /** Whether the browser has promised already; never asks the player. */
  persisted(): Promise<PersistenceAnswer>;
  /**
   * Asks the browser to keep the site's storage: Firefox asks the player, Chromium and Safari
   * decide by themselves (a site added to the home screen, bookmarked or often visited).
   */
  persist(): Promise<PersistenceAnswer>;
}

/** The page's navigator.storage, read when asked (so a page's own stub of it counts). */
export function browserPersistentStorage(): PersistentStorage {
  return { persisted: () => ask('persisted'), persist: () => ask('persist') };
}

async function ask(question: keyof PersistentStorage): Promise<PersistenceAnswer> {
  const storage = globalThis.navigator?.storage as Partial<StorageManager> | undefined;
  if (!storage?.persist || !storage.persisted) return 'unsupported';
  return (await storage[question]!()) ? 'persisted' : 'notPersisted';
}

/**
 * The saved stories' part of the saga context (DESIGN.md, where side effects live), and the
 * reader their flows use: MyStoriesDB, the channel to this browser's other tabs, and the
 * browser's promise to keep them. The app fills it with the browser's own
 * (browserStoriesContext); tests put a fresh fake-indexeddb, a fake channel and their own answer
 * in it.
 */
import type { BackendContext } from '../../../api';
import { contextReader, type ClockContext } from '../../../shared/sagaContext';
import type { PersistentStorage } from '../persistentStorage';
import type { StoriesDb } from '../browserDb';
import type { Outbox } from '../outbox';
import type { TabChannel } from '../tabChannel';

export interface StoriesContext extends ClockContext, BackendContext {
  /** Opens MyStoriesDB (the root saga opens it once and shares it with every flow). */
  openStoriesDb: () => Promise<StoriesDb>;
  /**
   * This tab's channel to the others, or null where the browser has none (the browser's own
   * arrives with the stories' flows, so it may come as a promise).
   */
  openTabChannel: () => TabChannel | null | Promise<TabChannel | null>;
  /** Whether the browser keeps the stories, and asking it to (navigator.storage). */
  persistentStorage: PersistentStorage;
  /** The saves kept here that other places (the wallet's cloud) have still to take. */
  storyOutbox: Outbox;
}

/** One value of the context the saved stories' flows read, typed by its key. */
export const fromContext = contextReader<StoriesContext>();

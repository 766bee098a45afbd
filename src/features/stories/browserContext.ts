/**
 * The browser's own saved-stories context: IndexedDB and BroadcastChannel, whose code (and idb)
 * is downloaded with the stories' flows when first opened, never with the home screen; and
 * navigator.storage's promise to keep them, and the outbox the browser's saves wait in for the
 * other places (a few lines each).
 */
import { makeOutbox } from './outbox';
import { browserPersistentStorage } from './persistentStorage';
import type { StoriesContext } from './sagas/sagaContext';

export function browserStoriesContext(): Omit<StoriesContext, 'clock' | 'backend'> {
  return {
    openStoriesDb: () =>
      import(/* webpackChunkName: "stories-flow" */ './browserDb').then(({ openStoriesDb }) =>
        openStoriesDb(),
      ),
    openTabChannel: () =>
      import(/* webpackChunkName: "stories-flow" */ './tabChannel').then(({ openTabChannel }) =>
        openTabChannel(),
      ),
    persistentStorage: browserPersistentStorage(),
    storyOutbox: makeOutbox(),
  };
}

/**
 * The browser's own saved-stories context: IndexedDB and BroadcastChannel. Their code (and idb)
 * is downloaded with the stories' flows when first opened, never with the home screen.
 */
import type { StoriesContext } from './sagas/sagaContext';

export function browserStoriesContext(): Omit<StoriesContext, 'clock' | 'backend'> {
  return {
    openStoriesDb: () =>
      import(/* webpackChunkName: "stories-flow" */ './storiesDb').then(({ openStoriesDb }) =>
        openStoriesDb(),
      ),
    openTabChannel: () =>
      import(/* webpackChunkName: "stories-flow" */ './tabChannel').then(({ openTabChannel }) =>
        openTabChannel(),
      ),
  };
}

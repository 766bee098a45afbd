/**
 * The browser's own saved-stories context: IndexedDB and BroadcastChannel. MyStoriesDB's code
 * (and idb) is downloaded with the stories' flows when the database is first opened, never with
 * the home screen.
 */
import type { StoriesContext } from './sagas/sagaContext';
import { openTabChannel } from './tabChannel';

export function browserStoriesContext(): Omit<StoriesContext, 'clock'> {
  return {
    openStoriesDb: () =>
      import(/* webpackChunkName: "stories-flow" */ './storiesDb').then(({ openStoriesDb }) =>
        openStoriesDb(),
      ),
    openTabChannel,
  };
}

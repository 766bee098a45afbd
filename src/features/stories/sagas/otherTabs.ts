/**
 * The other tabs of this browser (tabChannel.ts): each save is told to them at once, and each
 * save they tell of is heard here; the slice decides whether it concerns this tab's story.
 */
import { eventChannel } from 'redux-saga';
import { put, take } from 'typed-redux-saga';
import { storiesActions } from '../storiesSlice';
import type { StorySavedMessage, TabChannel } from '../tabChannel';
import { fromContext } from './sagaContext';

/** Tells the other tabs of a save, on the root saga's one channel (none for a worker alone). */
export function* tellOtherTabs(message: StorySavedMessage) {
  const openTabs = yield* fromContext('openTabChannel');
  try {
    // Under the root saga this tab's channel is open already (storiesSaga.ts): no wait here.
    const tabs = openTabs?.();
    if (tabs && !(tabs instanceof Promise)) tabs.post(message);
  } catch (error) {
    // Only the early word is lost: the revision check still keeps both lines.
    console.error('Telling the other tabs of a save failed', error);
  }
}

/** Each save another tab announces, until the flows end; then the channel is closed. */
export function* hearOtherTabs(tabs: TabChannel) {
  const heard = eventChannel<StorySavedMessage>((emit) => tabs.listen(emit));
  try {
    for (;;) {
      const { id, revision, lastSaved } = yield* take(heard);
      yield* put(storiesActions.savedInAnotherTab({ id, revision, lastSaved }));
    }
  } finally {
    heard.close();
    tabs.close();
  }
}

/** The stories' notices: a success goes by itself; a failure stays until the player dismisses it. */
import type { UnknownAction } from '@reduxjs/toolkit';
import { call, put, select } from 'typed-redux-saga';
import { wait } from '../../../shared/waits';
import { isFailureNotice, storiesActions } from '../storiesSlice';
import { selectState } from './storiesState';

/** How long a success notice stays; failures stay until dismissed. */
export const NOTICE_MS = 4000;

/** The events whose notice goes by itself. */
export const EXPIRING_NOTICES = [
  storiesActions.storySaved,
  storiesActions.storyDeleted,
  storiesActions.storyLoaded,
  storiesActions.storyImported,
].map((event) => event.type);

/** The expiry worker: the notice an event brought is dismissed after NOTICE_MS. */
export function* expireNotice(action: UnknownAction) {
  // A quiet auto-save brings no notice of its own.
  if (storiesActions.storySaved.match(action) && !action.payload.manual) return;
  const { notice } = (yield* select(selectState)).stories;
  if (!notice || isFailureNotice(notice)) return;
  yield* call(wait, NOTICE_MS);
  yield* put(storiesActions.noticeDismissed(notice.seq));
}

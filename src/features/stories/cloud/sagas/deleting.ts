/** Delete, where the story is kept with the wallet: from the cloud, and so on every device. */
import { call, put, select } from 'typed-redux-saga';
import { storiesActions } from '../../storiesSlice';
import { selectState } from '../../sagas/storiesState';
import { CLOUD_STORIES_TAG, cloudApi } from '../cloudApi';
import { cloudClient, signedInClient } from '../cloudPlace';
import { deleteFromCloud } from '../cloudStories';
import { cloudProblemOf, cloudQueue } from './sending';

/** Delete on a story kept only in the cloud. */
export function* deleteInCloud({
  payload: cloudId,
}: ReturnType<typeof storiesActions.cloudDeleteConfirmed>) {
  const { client } = yield* call(signedInClient);
  yield* call(deleteFromCloud, client, cloudId);
  yield* put(storiesActions.cloudStoryDeleted(cloudId));
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
}

/** A delete's failure: the notice says why; the story is listed until it can be deleted. */
export const deleteFailed = (error: unknown) =>
  storiesActions.cloudDeleteFailed(cloudProblemOf(error));

/** Delete on a story this browser keeps: it goes from the cloud too, if it went up. */
export function* deleteEverywhere({
  payload: id,
}: ReturnType<typeof storiesActions.deleteConfirmed>) {
  // Nothing of it is sent any more.
  const queue = yield* call(cloudQueue);
  yield* call([queue, queue.forget], id);
  const { list, current } = (yield* select(selectState)).stories;
  const listed = list.stories.find((story) => story.id === id)?.cloud;
  const cloudId = listed ? listed.revision > 0 && listed.id : current?.id === id && current.cloudId;
  if (!cloudId) return;
  const connection = yield* call(cloudClient);
  if (!connection) return;
  // The local copy is gone; a failure here lists the cloud's again until it can be deleted.
  yield* call(deleteFromCloud, connection.client, cloudId);
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
}

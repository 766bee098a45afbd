/**
 * Publish and Unpublish (DESIGN.md, "Cloud saves and published stories"): the story goes up
 * first if this browser has a save of it the cloud has not taken (whether or not cloud saves
 * are on: publishing is asked for), then it is published. What is published is server data:
 * the wallet's cloud list is invalidated, and the panel reads it again.
 */
import { call, put, select } from 'typed-redux-saga';
import { getStory, type KeptStory } from '../../browserPlace';
import { recordFromDraft } from '../../storyRecord';
import { storiesActions } from '../../storiesSlice';
import { selectState, storiesDb } from '../../sagas/storiesState';
import { CLOUD_STORIES_TAG, cloudApi } from '../cloudApi';
import { signedInClient, type CloudPlace } from '../cloudPlace';
import { CloudError, setPublished } from '../cloudStories';
import { cloudProblemOf, cloudQueue, sendKept } from './sending';

/** The browser's save of story `id` still to go up: the queued one, or the record as kept. */
function* waitingSave(id: number) {
  const queue = yield* call(cloudQueue);
  const queued = queue.pending().find((kept) => kept.id === id);
  if (queued) return queued;
  const db = yield* storiesDb();
  const saved = yield* call(getStory, db, id);
  const link = saved?.cloud;
  if (!saved || !link || (link.revision > 0 && link.sent >= (saved.revision ?? 0))) return null;
  const { id: _id, lastSaved, revision = 0, branchOf = null, cloud: _cloud, ...draft } = saved;
  const kept: KeptStory = {
    saved: true,
    id,
    revision,
    lastSaved,
    branchOf,
    splitFrom: null,
    cloud: link,
    cloudId: link.id,
    record: recordFromDraft(draft),
  };
  return kept;
}

/** Publish: sent first where it has to be, then published. */
export function* publish(
  { payload: target }: ReturnType<typeof storiesActions.publishRequested>,
  place: CloudPlace,
) {
  let cloudId = target.cloudId;
  const { client } = yield* call(signedInClient);
  if (target.localId !== null) {
    const kept = yield* call(waitingSave, target.localId);
    if (kept) {
      const queue = yield* call(cloudQueue);
      cloudId = (yield* call(sendKept, kept, queue, place)).id;
    }
  }
  const publishedAt = yield* call(setPublished, client, cloudId, true);
  if (!publishedAt) throw new CloudError('failed', 'The story was not published');
  yield* put(storiesActions.storyPublished({ cloudId, publishedAt }));
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
}

export function* unpublish({ payload }: ReturnType<typeof storiesActions.unpublishRequested>) {
  const { client } = yield* call(signedInClient);
  yield* call(setPublished, client, payload.cloudId, false);
  yield* put(storiesActions.storyUnpublished(payload.cloudId));
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
}

/** A publish's or unpublish's failure, for the story the panel is working on. */
export function* publishFailed(error: unknown) {
  const { storyId } = (yield* select(selectState)).stories.cloud.publishing;
  const problem = cloudProblemOf(error);
  if (problem === 'failed') console.warn('Publishing failed', error);
  return storiesActions.publishFailed({ cloudId: storyId ?? '', problem });
}

/**
 * The wallet's cloud list set beside the browser's (server data: cloudApi.ts). Reading needs no
 * setting: any signed-in wallet's list is read, so a new device finds the wallet's stories. When
 * the list arrives, or the browser's list is read again while the cloud's is there, a story this
 * browser has and did not change since it last sent it comes down when the cloud's is newer,
 * and goes when it was deleted elsewhere. Load on a story kept only in the cloud brings it down
 * first.
 */
import { call, put, select } from 'typed-redux-saga';
import { selectGameStage } from '../../../game';
import { getStory, linkToCloud, saveStory, deleteStory } from '../../browserPlace';
import type { ListedStory } from '../../browserPlace';
import type { CloudLink } from '../../savedStory';
import { isRecordProblem, readRecord } from '../../recordReader';
import { storiesActions } from '../../storiesSlice';
import { fromContext } from '../../sagas/sagaContext';
import { selectState, storiesDb } from '../../sagas/storiesState';
import { CLOUD_STORIES_TAG, cloudApi, selectCloudStories } from '../cloudApi';
import type { CloudStory } from '../cloudModel';
import { signedInClient } from '../cloudPlace';
import { CloudError, fetchCloudStory } from '../cloudStories';
import { fetchCloudPicture, listCloudPictures, sameInstant } from '../cloudPictures';
import { keepPicture, picturesOf } from '../../pictureStore';
import type { BackendClient } from '../../../../api';
import { cloudProblemOf } from './sending';

/**
 * The cloud's list and the browser's, once both are there for the signed-in wallet: newer saves
 * come down, stories deleted elsewhere go. The story on screen is never replaced under the
 * player: its next save settles it.
 */
export function* reconcile() {
  const state = yield* select(selectState);
  const { list } = state.stories;
  const session = state.wallet.session;
  if (!session || list.status !== 'loaded' || list.owner?.toLowerCase() !== session.address) return;
  // The backend API joins the store with the first page that talks to it (app/routes.tsx).
  if (!('api' in state)) return;
  const cloud = selectCloudStories(session.address)(state as never).data;
  if (!cloud) return;
  yield* call(settleLocals, cloud, list.stories);
}

function* settleLocals(stories: readonly CloudStory[], locals: readonly ListedStory[]) {
  const byId = new Map(stories.map((story) => [story.id, story]));
  const state = yield* select(selectState);
  const onScreen =
    selectGameStage(state) === 'loadOrCreate' ? null : (state.stories.current?.id ?? null);
  const gone: number[] = [];
  let broughtDown = false;
  const db = yield* storiesDb();
  for (const local of locals) {
    const link = local.cloud;
    if (!link || link.revision === 0) continue;
    const settled = link.sent === (local.revision ?? 0) && local.id !== onScreen;
    if (!settled) continue;
    const cloud = byId.get(link.id);
    if (!cloud) {
      gone.push(local.id);
      yield* call(deleteStory, db, local.id);
    } else if (cloud.revision > link.revision) {
      yield* call(bringDown, link.id, local.id);
      broughtDown = true;
    }
  }
  if (gone.length > 0) yield* put(storiesActions.storiesGoneFromCloud(gone));
  // The list shows what came down (listed again, these are settled: nothing comes down twice).
  if (broughtDown) yield* put(storiesActions.savedStoriesRequested());
}

/**
 * Brings cloud story `cloudId` down into MyStoriesDB (over record `localId` when this browser
 * has it) and returns the record's id, or null when the cloud has no such story.
 */
export function* bringDown(cloudId: string, localId: number | null) {
  const { client, owner } = yield* call(signedInClient);
  const found = yield* call(fetchCloudStory, client, cloudId);
  if (!found) return null;
  const shape = readRecord(found.record);
  if (isRecordProblem(shape)) {
    throw new CloudError('failed', `Cloud story ${cloudId} cannot be read: ${shape.reason}`);
  }
  const db = yield* storiesDb();
  const local = localId === null ? undefined : yield* call(getStory, db, localId);
  const link: CloudLink = { id: cloudId, revision: found.revision, sent: 0 };
  const clock = yield* fromContext('clock');
  const result = yield* call(
    saveStory,
    db,
    {
      ...shape,
      cloud: link,
      ...(local && {
        id: local.id,
        walletAddress: local.walletAddress,
        basedOn: { revision: local.revision ?? 0, lastSaved: local.lastSaved },
      }),
    },
    owner,
    new Date(clock.now()),
  );
  if (!result.saved) return null;
  // What came down is what the cloud has: nothing of it is waiting to go up.
  yield* call(linkToCloud, db, result.id, { ...link, sent: result.revision });
  try {
    yield* call(bringPicturesDown, client, cloudId, result.id);
  } catch (error) {
    // The story is here and plays on; its pictures come with the next turn brought down.
    console.warn(`The pictures of cloud story ${cloudId} did not come down`, error);
  }
  return result.id;
}

/**
 * The cloud story's pictures into MyStoriesDB beside its record `localId`: each drawing the
 * browser does not have comes down (checked as an import's). None is deleted here for being
 * absent there: the cloud may lack one it refused for a bound, or one not yet sent.
 */
function* bringPicturesDown(client: BackendClient, cloudId: string, localId: number) {
  const listed = yield* call(listCloudPictures, client, cloudId);
  const db = yield* storiesDb();
  const here = yield* call(picturesOf, db, localId);
  for (const { turn, createdAt } of listed) {
    const mine = here.find((picture) => picture.turn === turn);
    if (mine && sameInstant(mine.createdAt, createdAt)) continue;
    const picture = yield* call(fetchCloudPicture, client, cloudId, turn);
    if (!picture) continue;
    const { index: _index, ...offered } = picture;
    const kept = yield* call(keepPicture, db, { ...offered, storyId: localId });
    if (!kept.kept) console.warn(`Cloud picture ${turn} of ${cloudId} not kept: ${kept.reason}`);
  }
}

/** Load on a story kept only in the cloud: down into this browser, then loaded as any other. */
export function* loadFromCloud({
  payload: cloudId,
}: ReturnType<typeof storiesActions.cloudLoadRequested>) {
  const id = yield* call(bringDown, cloudId, null);
  if (id === null) {
    yield* put(storiesActions.storyLoadFailed(null));
    return;
  }
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
  yield* put(storiesActions.loadRequested(id));
}

/** The saved stories shown or refreshed: the wallet's cloud list is read again (if shown). */
export function* readCloudAgain() {
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
}

/** The lists could not be set side by side: the browser's stands; the next list tries again. */
export function reconcileFailed(error: unknown) {
  console.warn("Setting the cloud's stories beside the browser's failed", error);
  return storiesActions.cloudSyncChanged({ status: 'waiting', problem: cloudProblemOf(error) });
}

/** Load's failure: the notice says it did not load. */
export function loadFromCloudFailed(error: unknown) {
  console.error('Bringing the story down failed', error);
  return storiesActions.storyLoadFailed(null);
}

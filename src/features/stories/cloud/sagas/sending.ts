/**
 * Cloud saves going up (DESIGN.md, "Cloud saves and published stories"): while 'Keep my stories
 * with my wallet' is on and the wallet signed in, every save the browser kept goes up too, one
 * at a time, from the cloud's queue in the outbox (outbox.ts): the very record the browser
 * wrote, never read back. When the cloud's flows start, and at each sign-in or when the setting
 * is turned on, the queue is rebuilt from the browser's records that are waiting (saved since
 * their last save went up). A save the cloud did not take (offline, rate-limited) waits and is
 * sent later; one it refused (1 MB, 100 stories) is said once and stays in the browser. A
 * story's pictures are one more part of it, sent after its saves in the same rounds
 * (sendingPictures.ts).
 */
import type { Action } from '@reduxjs/toolkit';
import { buffers } from 'redux-saga';
import { actionChannel, call, flush, put, race, select, take } from 'typed-redux-saga';
import { loadMessages } from '../../../../shared/messageParts';
import { wait } from '../../../../shared/waits';
import { cloudSavesChosen, selectCloudSaves } from '../../../settings';
import { currentWalletSession, walletSlice } from '../../../wallet';
import type { StoriesDb } from '../../browserDb';
import { getStory, linkToCloud, storiesToSend, type KeptStory } from '../../browserPlace';
import type { PlaceQueue } from '../../outbox';
import { recordFromDraft } from '../../storyRecord';
import { storiesActions } from '../../storiesSlice';
import { fromContext } from '../../sagas/sagaContext';
import { storiesDb } from '../../sagas/storiesState';
import { CLOUD_STORIES_TAG, cloudApi } from '../cloudApi';
import type { CloudProblem } from '../cloudModel';
import { sendToCloud, type CloudPlace } from '../cloudPlace';
import { CloudError } from '../cloudStories';
import { picturesDueFromBrowser, sendDuePictures } from './sendingPictures';

/** How long a save waits before it is tried again when the backend did not answer. */
export const CLOUD_RETRY_MS = 30_000;

/** The outbox's queue of the cloud, by this name. */
export const CLOUD_PLACE = 'cloud';

/** The problem a failure of the cloud's flows is told as. */
export const cloudProblemOf = (error: unknown): CloudProblem =>
  error instanceof CloudError ? error.problem : 'failed';

/** Whether saves go up now: the player keeps stories with the wallet, and it is signed in. */
export function* cloudSavesOn() {
  return (yield* select(selectCloudSaves)) && (yield* call(currentWalletSession)) !== null;
}

/** The cloud's queue in the outbox. */
export function* cloudQueue() {
  const outbox = yield* fromContext('storyOutbox');
  return yield* call([outbox, outbox.open], CLOUD_PLACE);
}

/**
 * The queue rebuilt from the browser: the wallet's records with a save still to go up, each as
 * it is kept there (a save already queued, newer, stays). Read when the cloud starts sending,
 * never after a save: a save hands its record to the queue itself.
 */
export function* rebuildQueue(queue: PlaceQueue) {
  const session = yield* call(currentWalletSession);
  if (!session) return;
  let waiting: number[];
  const db = yield* storiesDb();
  try {
    waiting = yield* call(storiesToSend, db, session.address);
  } catch (error) {
    // The browser's storage failed: the save flows say so; what is queued still goes up.
    console.warn('Reading the saves to send failed', error);
    return;
  }
  for (const id of waiting) {
    const saved = yield* call(readKept, db, id);
    if (!saved?.cloud) continue;
    const { id: _id, lastSaved, revision = 0, branchOf = null, cloud, ...draft } = saved;
    const kept: KeptStory = {
      saved: true,
      id,
      revision,
      lastSaved,
      branchOf,
      splitFrom: null,
      cloud,
      cloudId: cloud.id,
      record: recordFromDraft(draft),
    };
    yield* call([queue, queue.offer], kept);
  }
}

/** A story as kept in the browser, or null where it cannot be read (it is not sent, nor lost). */
function* readKept(db: StoriesDb, id: number) {
  try {
    return (yield* call(getStory, db, id)) ?? null;
  } catch (error) {
    console.warn(`Saved story ${id} cannot be sent to the cloud`, error);
    return null;
  }
}

/**
 * Sends one kept save, and records that the cloud took it: out of the queue, and the record's
 * link to the cloud written in the browser and told to the list. Returns the link.
 */
export function* sendKept(kept: KeptStory, queue: PlaceQueue, place: CloudPlace) {
  const link = yield* call(sendToCloud, kept, place);
  yield* call([queue, queue.taken], kept.id, kept.revision);
  const db = yield* storiesDb();
  yield* call(linkToCloud, db, kept.id, link);
  yield* put(storiesActions.storyLinkedToCloud({ id: kept.id, link }));
  return link;
}

/** How long a round waits for a refusal's words before it tells the refusal anyway. */
const REFUSAL_WORDS_WAIT_MS = 5_000;

/**
 * The words of a picture's refusal are the 'sharing' part's (src/app/intl/messageParts.ts),
 * fetched here before the notice that says them, which any page may show. Waited for a few
 * seconds at most: words that come later still reach the notice (the app shows each part as it
 * arrives), and the saves behind this round never wait on a fetch that does not answer. Words
 * that cannot be fetched now are asked for again by the next view that needs them.
 */
function* refusalWords() {
  try {
    yield* race({
      words: call(loadMessages, 'sharing' as const),
      late: call(wait, REFUSAL_WORDS_WAIT_MS),
    });
  } catch (error) {
    console.warn('The words of a refused picture could not be fetched', error);
  }
}

/**
 * Sends every save waiting, oldest first, then the pictures due; stops at the first the cloud
 * did not take. Pictures it refused (sendingPictures.ts) are not sent again, and are said when a
 * round ends.
 */
export function* sendWaitingSaves(queue: PlaceQueue, place: CloudPlace) {
  if (!(yield* call(cloudSavesOn))) return null;
  const waiting = queue.pending();
  if (waiting.length === 0 && place.picturesDue.size === 0) return null;
  yield* put(storiesActions.cloudSyncChanged({ status: 'sending', problem: null }));
  try {
    for (const kept of waiting) yield* call(sendKept, kept, queue, place);
    yield* call(sendDuePictures, place);
  } catch (error) {
    const problem = cloudProblemOf(error);
    if (problem !== 'unreachable') console.warn('A cloud save was not taken', error);
    yield* put(storiesActions.cloudSyncChanged({ status: 'waiting', problem }));
    return error instanceof CloudError ? error : new CloudError(problem, String(error));
  }
  // The pictures refused since a round last ended: a bound, said with its figures, first.
  const refused = place.refusalsUntold;
  const problem = (['picturesRefused', 'pictureFailed'] as const).find((why) => refused.has(why));
  refused.clear();
  if (problem) yield* call(refusalWords);
  yield* put(storiesActions.cloudSyncChanged({ status: 'idle', problem: problem ?? null }));
  yield* put(cloudApi.util.invalidateTags([CLOUD_STORIES_TAG]));
  return null;
}

/** What starts a round of sending: a save, a sign-in, the setting turned on. */
const SEND_TRIGGERS = [
  storiesActions.storySaved.type,
  storiesActions.storySavedAsBranch.type,
  storiesActions.storyImported.type,
  walletSlice.actions.signedIn.type,
  walletSlice.actions.sessionRestored.type,
  cloudSavesChosen.type,
  storiesActions.pictureKept.type,
  storiesActions.pictureForgotten.type,
];

/** The events after which the browser's waiting saves are read into the queue again. */
const REBUILD_TRIGGERS = new Set<string>([
  walletSlice.actions.signedIn.type,
  walletSlice.actions.sessionRestored.type,
  cloudSavesChosen.type,
]);

/**
 * The saves go up one round at a time. A round the backend did not answer (or asked to wait)
 * is tried again after the wait, or sooner when the next save comes; one it refused for a bound
 * waits for the next save. The queue is rebuilt from the browser at the start and after a
 * sign-in or the setting turned on.
 */
export function* sendInTurn(place: CloudPlace) {
  // Every trigger is kept: a picture's event must never take the place of a sign-in waiting.
  const triggers = yield* actionChannel(SEND_TRIGGERS, buffers.expanding<Action>());
  const queue = yield* call(cloudQueue);
  let rebuild = true;
  for (;;) {
    if (rebuild && (yield* call(cloudSavesOn))) {
      yield* call(rebuildQueue, queue);
      yield* call(picturesDueFromBrowser, place);
    }
    const failure = yield* call(sendWaitingSaves, queue, place);
    const retry =
      failure?.problem === 'unreachable'
        ? CLOUD_RETRY_MS
        : failure?.problem === 'rateLimited'
          ? (failure.retryAfterMs ?? CLOUD_RETRY_MS)
          : null;
    const next =
      retry === null
        ? yield* take(triggers)
        : (yield* race({ next: take(triggers), again: call(wait, retry) })).next;
    // What else came meanwhile is answered by the same round: a burst of pictures kept (a
    // branch's copies, a story's pictures brought in) makes one round, not one each.
    const burst = next === undefined ? [] : [next, ...(yield* flush(triggers))];
    rebuild = burst.some((trigger) => REBUILD_TRIGGERS.has(trigger.type));
    for (const trigger of burst) {
      // A picture kept or let go: its story's pictures are set beside the cloud's (it has gone
      // up already, or its first save that does sends them).
      if (
        storiesActions.pictureKept.match(trigger) ||
        storiesActions.pictureForgotten.match(trigger)
      ) {
        const { storyId, turn } = trigger.payload;
        place.picturesDue.add(storyId);
        if (storiesActions.pictureForgotten.match(trigger)) {
          const forgotten = place.picturesForgotten.get(storyId) ?? new Set<number>();
          place.picturesForgotten.set(storyId, forgotten.add(turn));
        }
      }
    }
  }
}

/**
 * Cloud saves and publishing (DESIGN.md, "Cloud saves and published stories"), loaded on demand
 * (sagas/cloudLoader.ts): once the player keeps stories with the wallet, or publishes one.
 *
 * - Every save reaches IndexedDB first (saving.ts); then, while 'Keep my stories with my
 *   wallet' is on and the wallet signed in, it goes up too, one at a time, sending the record
 *   and only the list entries that changed since this tab last sent the story. A save the cloud
 *   did not take (offline, rate-limited) waits and is sent later; one it refused (1 MB, 100
 *   stories) is said once and stays in the browser.
 * - A story another device saved since this one last sent it is not overwritten: this browser's
 *   line goes up as a copy, and the player is told (the rule two tabs follow, storyRevision.ts).
 * - The list sets the wallet's cloud stories beside the local ones, brings down newer saves of
 *   the ones this browser has, and lets go of the ones deleted elsewhere.
 * - Load brings a story kept only in the cloud down, then loads it as any saved story.
 * - Delete deletes everywhere; Publish sends the story if it has not gone up, then publishes it.
 */
import type { Action } from '@reduxjs/toolkit';
import { buffers } from 'redux-saga';
import {
  actionChannel,
  call,
  fork,
  put,
  race,
  select,
  take,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import type { BackendClient } from '../../../api';
import { wait } from '../../../shared/waits';
import { selectGameStage, selectStory } from '../../game';
import { cloudSavesChosen, selectCloudSaves, selectLanguage } from '../../settings';
import { currentWalletSession, walletSlice } from '../../wallet';
import { storyDraftOf } from '../gameRecord';
import { newStoryId, type CloudLink, type SavedStory } from '../savedStory';
import { toSavedStoryShape } from '../storedRecord';
import { deleteStory, getStory, linkToCloud, saveStory, storiesToSend } from '../storiesDb';
import { changedEntries, listLengths, splitLists, type StoryLists } from '../storyLists';
import { storiesActions } from '../storiesSlice';
import { selectState, storiesDb } from '../sagas/storiesState';
import { fromContext } from '../sagas/sagaContext';
import type { CloudProblem, CloudStory, PublishTarget } from './cloudModel';
import {
  CloudError,
  deleteFromCloud,
  fetchCloudStory,
  listCloudStories,
  saveToCloud,
  setPublished,
  type CloudHead,
} from './cloudStories';

/** How long a save waits before it is tried again when the backend did not answer. */
export const CLOUD_RETRY_MS = 30_000;

/**
 * What this tab last sent: each story's lists by cloud id, with the revision they made, and
 * each record's link to the cloud, so that a turn's save compares the store's own entries
 * (the same objects, cheap to compare) and never reads the story back from IndexedDB.
 */
export interface Sent {
  lists: Map<string, { revision: number; lists: StoryLists }>;
  links: Map<number, CloudLink>;
}

export const nothingSent = (): Sent => ({ lists: new Map(), links: new Map() });

/** The signed-in wallet's backend client, or null without a session. */
export function* cloudClient() {
  const session = yield* call(currentWalletSession);
  if (!session) return null;
  const provider = yield* fromContext('backend');
  const backend = yield* call(provider);
  return { client: backend.forWallet(session), owner: session.address };
}

/** Whether saves go up now: the player keeps stories with the wallet, and it is signed in. */
function* cloudSavesOn() {
  return (yield* select(selectCloudSaves)) && (yield* call(currentWalletSession)) !== null;
}

const problemOf = (error: unknown): CloudProblem =>
  error instanceof CloudError ? error.problem : 'failed';

/** A saved record as the cloud keeps it: the record without its lists, and the lists. */
function cloudShapeOf(record: SavedStory): { head: CloudHead; lists: StoryLists } {
  const { head, lists } = splitLists(record.game);
  const {
    id: _id,
    walletAddress: _wallet,
    revision: _revision,
    cloud: _cloud,
    game: _game,
    ...fields
  } = record;
  return { head: { ...fields, game: head }, lists };
}

/**
 * Sends one saved record up, and records where it went (a copy's id when it became one).
 * Throws a CloudError when the cloud did not take it.
 */
export function* sendStory(record: SavedStory, sent: Sent) {
  const connection = yield* call(cloudClient);
  if (!connection) throw new CloudError('signedOut', 'No wallet is signed in');
  const { client } = connection;
  const language = yield* select(selectLanguage);
  const link = record.cloud ?? { id: newStoryId(), revision: 0, sent: 0 };
  const { head, lists } = cloudShapeOf(record);
  const known = sent.lists.get(link.id);
  const save = (id: string, baseRevision: number, since: StoryLists | undefined, copyOf?: string) =>
    call(saveToCloud, client, {
      id,
      baseRevision,
      savedAt: record.lastSaved,
      language,
      head,
      lengths: listLengths(lists),
      parts: changedEntries(lists, since),
      copyOf: copyOf ?? null,
    });

  let id = link.id;
  let answer = yield* save(
    id,
    link.revision,
    known?.revision === link.revision ? known.lists : undefined,
  );
  if (!answer.saved && answer.revision === 0) {
    // Deleted elsewhere while this browser played on: its line is the only copy left.
    answer = yield* save(id, 0, undefined);
  } else if (!answer.saved) {
    // Another device saved it since: this browser's line is kept as a copy, never lost.
    id = newStoryId();
    answer = yield* save(id, 0, undefined, link.id);
    yield* put(storiesActions.cloudStoryKeptAsCopy({ name: record.chosenCharacter }));
  }
  if (!answer.saved) throw new CloudError('failed', 'The cloud refused a new story');
  const newLink: CloudLink = { id, revision: answer.revision, sent: record.revision ?? 0 };
  sent.lists.set(id, { revision: answer.revision, lists });
  sent.links.set(record.id, newLink);
  const db = yield* storiesDb();
  yield* call(linkToCloud, db, record.id, newLink);
  yield* put(storiesActions.storyLinkedToCloud({ id: record.id, link: newLink }));
  return newLink;
}

/**
 * The saved record of story `id` as it is now. The one being played, once this tab has sent it,
 * is made from the store (its lists are the very entries sent last time); any other is read
 * from IndexedDB.
 */
function* recordToSend(id: number, sent: Sent) {
  const state = yield* select(selectState);
  const current = state.stories.current;
  const link = sent.links.get(id);
  if (current?.id === id && link) {
    const { basedOn: _basedOn, ...draft } = storyDraftOf(selectStory(state), current);
    const record: SavedStory = {
      ...draft,
      id,
      walletAddress: current.walletAddress,
      revision: current.revision,
      lastSaved: current.lastSaved,
      cloud: link,
    };
    return record;
  }
  const db = yield* storiesDb();
  return (yield* call(getStory, db, id)) ?? null;
}

/** Sends every save still waiting, oldest first; stops at the first the cloud did not take. */
export function* sendWaitingSaves(sent: Sent) {
  if (!(yield* call(cloudSavesOn))) return null;
  const session = yield* call(currentWalletSession);
  let waiting: number[];
  try {
    const db = yield* storiesDb();
    waiting = yield* call(storiesToSend, db, session?.address ?? '');
  } catch (error) {
    // The browser's storage failed: the save flows say so; this round has nothing to send.
    console.warn('Reading the saves to send failed', error);
    return null;
  }
  if (waiting.length === 0) return null;
  yield* put(storiesActions.cloudSyncChanged({ status: 'sending', problem: null }));
  for (const id of waiting) {
    try {
      const record = yield* call(recordToSend, id, sent);
      if (record) yield* call(sendStory, record, sent);
    } catch (error) {
      const problem = problemOf(error);
      if (problem !== 'unreachable') console.warn('A cloud save was not taken', error);
      yield* put(storiesActions.cloudSyncChanged({ status: 'waiting', problem }));
      return error instanceof CloudError ? error : new CloudError(problem, String(error));
    }
  }
  yield* put(storiesActions.cloudSyncChanged({ status: 'idle', problem: null }));
  return null;
}

/** What starts a round of sending: a save, a sign-in, the setting turned on. */
const SEND_TRIGGERS = [
  storiesActions.storySaved.type,
  storiesActions.storySavedAsBranch.type,
  walletSlice.actions.signedIn.type,
  walletSlice.actions.sessionRestored.type,
  cloudSavesChosen.type,
];

/**
 * The saves go up one round at a time. A round the backend did not answer (or asked to wait)
 * is tried again after the wait, or sooner when the next save comes; one it refused for a bound
 * waits for the next save.
 */
export function* sendInTurn(sent: Sent) {
  const triggers = yield* actionChannel(SEND_TRIGGERS, buffers.sliding<Action>(1));
  for (;;) {
    const failure = yield* call(sendWaitingSaves, sent);
    const retry =
      failure?.problem === 'unreachable'
        ? CLOUD_RETRY_MS
        : failure?.problem === 'rateLimited'
          ? (failure.retryAfterMs ?? CLOUD_RETRY_MS)
          : null;
    if (retry === null) yield* take(triggers);
    else yield* race({ next: take(triggers), again: call(wait, retry) });
  }
}

/**
 * After the local list: the wallet's cloud stories beside it. A story this browser has and
 * did not change since it last sent it comes down when the cloud's is newer, and goes when it
 * was deleted elsewhere; the rest of the cloud's are listed as kept elsewhere.
 */
export function* listCloud({ payload }: ReturnType<typeof storiesActions.savedStoriesListed>) {
  if (!(yield* call(cloudSavesOn))) return;
  const connection = yield* call(cloudClient);
  if (!connection || payload.owner.toLowerCase() !== connection.owner) return;
  try {
    yield* call(reconcile, connection, payload.stories);
  } catch (error) {
    // The local list stands as it is; the cloud's part is tried again with the next list.
    console.warn('Listing the cloud stories failed', error);
    yield* put(storiesActions.cloudSyncChanged({ status: 'waiting', problem: problemOf(error) }));
  }
}

/** The cloud's stories set beside `locals` (the local list), as listCloud says. */
function* reconcile(
  connection: { client: BackendClient; owner: string },
  locals: readonly SavedStory[],
) {
  const stories: CloudStory[] = yield* call(listCloudStories, connection.client);
  const byId = new Map(stories.map((story) => [story.id, story]));
  const state = yield* select(selectState);
  // The story on screen is never replaced under the player: its next save settles it.
  const onScreen =
    selectGameStage(state) === 'loadOrCreate' ? null : (state.stories.current?.id ?? null);
  const here = new Set<string>();
  const gone: number[] = [];
  let broughtDown = false;
  const db = yield* storiesDb();
  for (const local of locals) {
    const link = local.cloud;
    if (!link || link.revision === 0) continue;
    here.add(link.id);
    const settled = link.sent === (local.revision ?? 0) && local.id !== onScreen;
    const cloud = byId.get(link.id);
    if (!settled) continue;
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
  yield* put(
    storiesActions.cloudStoriesListed({
      owner: connection.owner,
      elsewhere: stories.filter((story) => !here.has(story.id)),
      published: Object.fromEntries(
        stories.flatMap((story) => (story.publishedAt ? [[story.id, story.publishedAt]] : [])),
      ),
    }),
  );
}

/**
 * Brings cloud story `cloudId` down into MyStoriesDB (over record `localId` when this browser
 * has it) and returns the record's id, or null when the cloud has no such story.
 */
export function* bringDown(cloudId: string, localId: number | null) {
  const connection = yield* call(cloudClient);
  if (!connection) throw new CloudError('signedOut', 'No wallet is signed in');
  const found = yield* call(fetchCloudStory, connection.client, cloudId);
  if (!found) return null;
  const db = yield* storiesDb();
  const local = localId === null ? undefined : yield* call(getStory, db, localId);
  const shape = toSavedStoryShape(found.record);
  const link: CloudLink = { id: cloudId, revision: found.revision, sent: 0 };
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
    connection.owner,
  );
  if (!result.saved) return null;
  // What came down is what the cloud has: nothing of it is waiting to go up.
  yield* call(linkToCloud, db, result.id, { ...link, sent: result.revision });
  return result.id;
}

/** Load on a story kept only in the cloud: down into this browser, then loaded as any other. */
export function* loadFromCloud({
  payload: cloudId,
}: ReturnType<typeof storiesActions.cloudLoadRequested>) {
  try {
    const id = yield* call(bringDown, cloudId, null);
    if (id === null) {
      yield* put(storiesActions.storyLoadFailed(null));
      return;
    }
    yield* put(storiesActions.loadRequested(id));
  } catch (error) {
    console.error('Bringing the story down failed', error);
    yield* put(storiesActions.storyLoadFailed(null));
  }
}

/** Delete on a story kept only in the cloud. */
export function* deleteInCloud({
  payload: cloudId,
}: ReturnType<typeof storiesActions.cloudDeleteConfirmed>) {
  try {
    const connection = yield* call(cloudClient);
    if (!connection) throw new CloudError('signedOut', 'No wallet is signed in');
    yield* call(deleteFromCloud, connection.client, cloudId);
    yield* put(storiesActions.cloudStoryDeleted(cloudId));
  } catch (error) {
    yield* put(storiesActions.cloudDeleteFailed(problemOf(error)));
  }
}

/** Delete on a story this browser keeps: it goes from the cloud too, if it went up. */
export function* deleteEverywhere({
  payload: id,
}: ReturnType<typeof storiesActions.deleteConfirmed>) {
  const { list, current } = (yield* select(selectState)).stories;
  const listed = list.stories.find((story) => story.id === id)?.cloud;
  const cloudId = listed ? listed.revision > 0 && listed.id : current?.id === id && current.cloudId;
  if (!cloudId) return;
  const connection = yield* call(cloudClient);
  if (!connection) return;
  try {
    yield* call(deleteFromCloud, connection.client, cloudId);
  } catch (error) {
    // The local copy is gone; the cloud's is listed again until it can be deleted there.
    yield* put(storiesActions.cloudDeleteFailed(problemOf(error)));
  }
}

/**
 * Publish: the story goes up first if this browser has a save of it the cloud has not taken
 * (whether or not cloud saves are on: publishing is asked for), then it is published.
 */
export function* publish(target: PublishTarget, sent: Sent) {
  let cloudId = target.cloudId;
  try {
    const connection = yield* call(cloudClient);
    if (!connection) throw new CloudError('signedOut', 'No wallet is signed in');
    if (target.localId !== null) {
      const record = yield* call(recordToSend, target.localId, sent);
      const link = record?.cloud;
      if (record && (!link || link.revision === 0 || link.sent < (record.revision ?? 0))) {
        cloudId = (yield* call(sendStory, record, sent)).id;
      }
    }
    const publishedAt = yield* call(setPublished, connection.client, cloudId, true);
    if (!publishedAt) throw new CloudError('failed', 'The story was not published');
    yield* put(storiesActions.storyPublished({ cloudId, publishedAt }));
  } catch (error) {
    console.warn('Publishing failed', error);
    yield* put(storiesActions.publishFailed({ cloudId, problem: problemOf(error) }));
  }
}

export function* unpublish({ payload }: ReturnType<typeof storiesActions.unpublishRequested>) {
  try {
    const connection = yield* call(cloudClient);
    if (!connection) throw new CloudError('signedOut', 'No wallet is signed in');
    yield* call(setPublished, connection.client, payload.cloudId, false);
    yield* put(storiesActions.storyUnpublished(payload.cloudId));
  } catch (error) {
    yield* put(
      storiesActions.publishFailed({ cloudId: payload.cloudId, problem: problemOf(error) }),
    );
  }
}

/**
 * The cloud's watchers. `first` is the action that asked for them, if one did (a Publish
 * before cloud saves were ever on): it is served first.
 */
export function* cloudSaga(first: { type: string; payload?: unknown } | null = null) {
  const sent = nothingSent();
  yield* fork(sendInTurn, sent);
  yield* takeLatest(storiesActions.savedStoriesListed, listCloud);
  yield* takeLeading(storiesActions.cloudLoadRequested, loadFromCloud);
  yield* takeEvery(storiesActions.cloudDeleteConfirmed, deleteInCloud);
  yield* takeEvery(storiesActions.deleteConfirmed, deleteEverywhere);
  yield* takeLeading(storiesActions.publishRequested, ({ payload }) => publish(payload, sent));
  yield* takeLeading(storiesActions.unpublishRequested, unpublish);
  if (first && storiesActions.publishRequested.match(first)) {
    yield* fork(publish, first.payload, sent);
  } else if (first && storiesActions.unpublishRequested.match(first)) {
    yield* fork(unpublish, first);
  } else if (first && storiesActions.cloudLoadRequested.match(first)) {
    yield* fork(loadFromCloud, first);
  } else if (first && storiesActions.cloudDeleteConfirmed.match(first)) {
    yield* fork(deleteInCloud, first);
  }
  // A list already on screen gets its cloud stories now.
  const { list } = (yield* select(selectState)).stories;
  if (list.status === 'loaded' && list.owner) {
    yield* fork(
      listCloud,
      storiesActions.savedStoriesListed({ owner: list.owner, stories: list.stories }),
    );
  }
}

/**
 * Cloud saves' workers replayed with expectSaga: the backend's answers are provided (the real
 * server's are in cloudSaves.test.ts and test/server/cloudStories.test.ts), MyStoriesDB is a
 * fresh fake-indexeddb, and each run ends when its worker does: no timeout, no wall clock.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic, throwError, type StaticProvider } from 'redux-saga-test-plan/providers';
import { rootReducer } from '../../../src/app/store';
import { initialStory, type Story } from '../../../src/features/game';
import { initialSettingsState } from '../../../src/features/settings';
import {
  CloudError,
  CLOUD_PLACE,
  cloudFlowFor,
  getStory,
  keepInBrowser,
  makeOutbox,
  newCloudPlace,
  openStoriesDb,
  saveToCloud,
  sendKept,
  sendWaitingSaves,
  setPublished,
  storiesActions,
  type KeptStory,
  type StoriesDb,
} from '../../../src/features/stories';
import { recordOf } from '../../../src/features/stories/storyRecord';
import { contextProviders } from '../../support/sagaReplay';
import { verifiedWallet } from '../../fixtures/walletSessions';

const WALLET = '0xcccc000000000000000000000000000000000003';
const story: Story = {
  ...initialStory,
  chosenGenre: 'Sea Legend',
  chosenImage: 9,
  chosenCharacter: 'Ione Reef',
  characterBio: 'A diver who hears the drowned bells.',
  storyLog: [{ kind: 'paragraph', text: 'The bells rang under the water all night long.' }],
  previousParagraph: 'The bells rang under the water all night long.',
};

let db: StoriesDb;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
});
afterEach(() => db.close());

const state = (cloudSaves = true) => ({
  ...rootReducer(undefined, { type: 'test/init' }),
  wallet: verifiedWallet(WALLET),
  settings: { ...initialSettingsState, cloudSaves },
});

/** MyStoriesDB, the signed-in wallet and a backend whose calls the tests provide. */
const context = (): StaticProvider[] =>
  contextProviders({
    openStoriesDb: async () => db,
    walletSession: () => verifiedWallet(WALLET).session,
    backend: async () => ({ anon: {} as never, forWallet: () => ({}) as never }),
  });

/** The story kept in the browser, as the save flow hands it to the outbox. */
async function savedHere(): Promise<KeptStory> {
  const result = await keepInBrowser(db, recordOf(story, null), WALLET, new Date(0));
  if (!result.saved) throw new Error('not saved');
  return result;
}

/** The cloud's queue, holding `kept`. */
function queueWith(kept: KeptStory) {
  const queue = makeOutbox().open(CLOUD_PLACE);
  queue.offer(kept);
  return queue;
}

test('a save the cloud refuses as moved on goes up whole as a copy, and the player is told', async () => {
  const kept = await savedHere();
  const original = kept.cloud.id;
  const stale = { ...kept, cloud: { ...kept.cloud, revision: 4, sent: 0 } };
  const queue = queueWith(stale);
  const calls: { id: string; baseRevision: number; copyOf?: string | null; parts: number }[] = [];
  const result = await expectSaga(sendKept, stale, queue, newCloudPlace())
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [
        matchers.call.fn(saveToCloud),
        dynamic(({ args: [, save] }: { args: [unknown, Parameters<typeof saveToCloud>[1]] }) => {
          calls.push({
            id: save.id,
            baseRevision: save.baseRevision,
            copyOf: save.copyOf,
            parts: save.parts.length,
          });
          // The cloud's story is at revision 6: another device saved it twice since.
          return save.baseRevision === 4
            ? { saved: false, revision: 6 }
            : { saved: true, revision: 1 };
        }),
      ],
    ])
    .put(storiesActions.cloudStoryKeptAsCopy({ name: 'Ione Reef' }))
    .run(false);

  // Sent whole both times: the cloud's place knew nothing of it (one log entry).
  expect(calls).toEqual([
    { id: original, baseRevision: 4, copyOf: null, parts: 1 },
    { id: expect.not.stringMatching(original), baseRevision: 0, copyOf: original, parts: 1 },
  ]);
  const copy = calls[1]!.id;
  expect(result.returnValue).toEqual({ id: copy, revision: 1, sent: kept.revision });
  // The record here now goes on as the copy, and nothing of it waits any more.
  expect((await getStory(db, kept.id))?.cloud).toEqual({ id: copy, revision: 1, sent: 1 });
  expect(queue.pending()).toEqual([]);
  expect(result.storeState.stories.cloud.keptAsCopy).toEqual({ name: 'Ione Reef' });
});

test('a save goes up as the very record the browser kept: nothing is read back from IndexedDB', async () => {
  const kept = await savedHere();
  const result = await expectSaga(sendWaitingSaves, queueWith(kept), newCloudPlace())
    .withReducer(rootReducer, state())
    .provide([...context(), [matchers.call.fn(saveToCloud), { saved: true, revision: 1 }]])
    .run(false);
  const called = (result.effects.call ?? []).map((effect) => effect.payload.fn.name);
  expect(called).toContain('saveToCloud');
  expect(called).not.toContain('getStory');
  expect(called).not.toContain('storiesToSend');
  const [, sent] = result.effects.call!.find((e) => e.payload.fn === saveToCloud)!.payload.args;
  // The head is the record's own, built once by recordOf.
  expect((sent as Parameters<typeof saveToCloud>[1]).head.game).toBe(kept.record.head);
});

test('a backend that does not answer leaves the save waiting, said as unreachable, not as a refusal', async () => {
  const queue = queueWith(await savedHere());
  const result = await expectSaga(sendWaitingSaves, queue, newCloudPlace())
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [matchers.call.fn(saveToCloud), throwError(new CloudError('unreachable', 'fetch failed'))],
    ])
    .run(false);
  expect(result.returnValue).toMatchObject({ problem: 'unreachable' });
  expect(result.storeState.stories.cloud.sync).toEqual({
    status: 'waiting',
    problem: 'unreachable',
  });
  // Offline is not news worth a notice each time: the save waits, still queued.
  expect(result.storeState.stories.notice).toBeNull();
  expect(queue.pending()).toHaveLength(1);
});

test('a story past 1 MB is said once, and stays in the browser', async () => {
  const queue = queueWith(await savedHere());
  const result = await expectSaga(sendWaitingSaves, queue, newCloudPlace())
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [matchers.call.fn(saveToCloud), throwError(new CloudError('tooLarge', '1 MB'))],
    ])
    .run(false);
  expect(result.storeState.stories.notice).toMatchObject({
    kind: 'cloudSaveFailed',
    reason: 'tooLarge',
  });
  expect(await getStory(db, 1)).toMatchObject({ chosenCharacter: 'Ione Reef' });
});

test('with cloud saves off nothing is sent', async () => {
  const queue = queueWith(await savedHere());
  const result = await expectSaga(sendWaitingSaves, queue, newCloudPlace())
    .withReducer(rootReducer, state(false))
    .provide(context())
    .run(false);
  expect(result.effects.call?.some((effect) => effect.payload.fn === saveToCloud) ?? false).toBe(
    false,
  );
});

test('a publish the backend refuses is told for its story, under the one failure policy', async () => {
  const target = { cloudId: 'c0ffee00-0000-4000-8000-000000000001', localId: null };
  const requested = storiesActions.publishRequested(target);
  const flow = cloudFlowFor(requested, newCloudPlace());
  if (!flow) throw new Error('Publish starts no cloud flow');
  const result = await expectSaga(flow)
    .withReducer(rootReducer, rootReducer(state(), requested))
    .provide([
      ...context(),
      [matchers.call.fn(setPublished), throwError(new CloudError('limit', 'no'))],
    ])
    .put(storiesActions.publishFailed({ cloudId: target.cloudId, problem: 'limit' }))
    .run(false);
  expect(result.storeState.stories.cloud.publishing).toEqual({
    status: 'failed',
    storyId: target.cloudId,
    problem: 'limit',
  });
});

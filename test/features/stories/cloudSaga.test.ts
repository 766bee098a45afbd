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
  getStory,
  nothingSent,
  openStoriesDb,
  saveStory,
  saveToCloud,
  sendStory,
  sendWaitingSaves,
  storiesActions,
  type StoriesDb,
} from '../../../src/features/stories';
import { storyDraftOf } from '../../../src/features/stories/storyRecord';
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

async function savedHere() {
  const result = await saveStory(db, storyDraftOf(story, null), WALLET);
  if (!result.saved) throw new Error('not saved');
  return (await getStory(db, result.id))!;
}

test('a save the cloud refuses as moved on goes up whole as a copy, and the player is told', async () => {
  const record = await savedHere();
  const original = record.cloud!.id;
  const calls: { id: string; baseRevision: number; copyOf?: string | null; parts: number }[] = [];
  const result = await expectSaga(
    sendStory,
    { ...record, cloud: { ...record.cloud!, revision: 4, sent: 0 } },
    nothingSent(),
  )
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
    .run();

  expect(calls).toEqual([
    { id: original, baseRevision: 4, copyOf: null, parts: 1 },
    { id: expect.not.stringMatching(original), baseRevision: 0, copyOf: original, parts: 1 },
  ]);
  const copy = calls[1]!.id;
  expect(result.returnValue).toEqual({ id: copy, revision: 1, sent: record.revision });
  // The record here now goes on as the copy.
  expect((await getStory(db, record.id))?.cloud).toEqual({ id: copy, revision: 1, sent: 1 });
  expect(result.storeState.stories.cloud.keptAsCopy).toEqual({ name: 'Ione Reef' });
});

test('a backend that does not answer leaves the save waiting, said as unreachable, not as a refusal', async () => {
  await savedHere();
  const result = await expectSaga(sendWaitingSaves, nothingSent())
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [matchers.call.fn(saveToCloud), throwError(new CloudError('unreachable', 'fetch failed'))],
    ])
    .run();
  expect(result.returnValue).toMatchObject({ problem: 'unreachable' });
  expect(result.storeState.stories.cloud.sync).toEqual({
    status: 'waiting',
    problem: 'unreachable',
  });
  // Offline is not news worth a notice each time: the save waits.
  expect(result.storeState.stories.notice).toBeNull();
});

test('a story past 1 MB is said once, and stays in the browser', async () => {
  await savedHere();
  const result = await expectSaga(sendWaitingSaves, nothingSent())
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [matchers.call.fn(saveToCloud), throwError(new CloudError('tooLarge', '1 MB'))],
    ])
    .run();
  expect(result.storeState.stories.notice).toMatchObject({
    kind: 'cloudSaveFailed',
    reason: 'tooLarge',
  });
  expect(await getStory(db, 1)).toMatchObject({ chosenCharacter: 'Ione Reef' });
});

test('with cloud saves off nothing is sent', async () => {
  await savedHere();
  const result = await expectSaga(sendWaitingSaves, nothingSent())
    .withReducer(rootReducer, state(false))
    .provide(context())
    .run();
  expect(result.effects.call?.some((effect) => effect.payload.fn === saveToCloud) ?? false).toBe(
    false,
  );
});

/**
 * A story's pictures going up, replayed with expectSaga (the real server's answers are in
 * cloudSaves/pictures.test.ts and test/server/storyPictures.test.ts): the backend's calls are
 * provided, MyStoriesDB is a fresh fake-indexeddb, and each round ends when its worker does. The
 * pictures are under the saves' one failure policy: a backend that does not answer leaves them
 * due, to go with the next round; what went up is not sent again.
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
  CLOUD_PLACE,
  CloudError,
  keepInBrowser,
  keepPicture,
  linkToCloud,
  makeOutbox,
  newCloudPlace,
  openStoriesDb,
  sendWaitingSaves,
  type StoriesDb,
} from '../../../src/features/stories';
import {
  listCloudPictures,
  savePictureToCloud,
} from '../../../src/features/stories/cloud/cloudPictures';
import { recordOf } from '../../../src/features/stories/storyRecord';
import { contextProviders } from '../../support/sagaReplay';
import { pictureOf } from '../../fixtures/storyPictures';
import { verifiedWallet } from '../../fixtures/walletSessions';

const WALLET = '0xcccc000000000000000000000000000000000004';
const CLOUD_ID = 'c0ffee00-0000-4000-8000-000000000041';
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

const state = () => ({
  ...rootReducer(undefined, { type: 'test/init' }),
  wallet: verifiedWallet(WALLET),
  settings: { ...initialSettingsState, cloudSaves: true },
});

const context = (): StaticProvider[] =>
  contextProviders({
    openStoriesDb: async () => db,
    walletSession: () => verifiedWallet(WALLET).session,
    backend: async () => ({ anon: {} as never, forWallet: () => ({}) as never }),
  });

/** A story in the cloud already, with its opening picture kept here and due to go up. */
async function storyWithPicture() {
  const kept = await keepInBrowser(db, recordOf(story, null), WALLET, new Date(0));
  if (!kept.saved) throw new Error('not saved');
  await linkToCloud(db, kept.id, { id: CLOUD_ID, revision: 1, sent: kept.revision });
  const picture = await keepPicture(db, pictureOf(kept.id, 'opening', 0));
  if (!picture.kept) throw new Error(`picture refused: ${picture.reason}`);
  const place = newCloudPlace();
  place.picturesDue.add(kept.id);
  return { id: kept.id, place };
}

test('a backend that does not answer leaves the pictures due, and the next round sends them once', async () => {
  const { id, place } = await storyWithPicture();
  const queue = makeOutbox().open(CLOUD_PLACE);
  const offline = await expectSaga(sendWaitingSaves, queue, place)
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [matchers.call.fn(listCloudPictures), []],
      [matchers.call.fn(savePictureToCloud), throwError(new CloudError('unreachable', 'offline'))],
    ])
    .run(false);
  expect(offline.returnValue).toMatchObject({ problem: 'unreachable' });
  expect(offline.storeState.stories.cloud.sync).toEqual({
    status: 'waiting',
    problem: 'unreachable',
  });
  expect([...place.picturesDue]).toEqual([id]);

  const sent: { story: string; turn: number }[] = [];
  const send = [
    matchers.call.fn(savePictureToCloud),
    dynamic(({ args: [, story, picture] }: { args: [unknown, string, { turn: number }] }) => {
      sent.push({ story, turn: picture.turn });
    }),
  ] as StaticProvider;
  const online = await expectSaga(sendWaitingSaves, queue, place)
    .withReducer(rootReducer, state())
    .provide([...context(), [matchers.call.fn(listCloudPictures), []], send])
    .run(false);
  expect(online.returnValue).toBeNull();
  expect(online.storeState.stories.cloud.sync).toEqual({ status: 'idle', problem: null });
  expect(sent).toEqual([{ story: CLOUD_ID, turn: 0 }]);
  expect(place.picturesDue.size).toBe(0);

  // Due again (another save of the story): the cloud has this drawing, nothing is sent.
  place.picturesDue.add(id);
  await expectSaga(sendWaitingSaves, queue, place)
    .withReducer(rootReducer, state())
    .provide([...context(), send])
    .run(false);
  expect(sent).toHaveLength(1);
});

test('a picture refused for a bound is told once as the pictures’ bound, and the round goes on', async () => {
  const { place } = await storyWithPicture();
  const result = await expectSaga(sendWaitingSaves, makeOutbox().open(CLOUD_PLACE), place)
    .withReducer(rootReducer, state())
    .provide([
      ...context(),
      [matchers.call.fn(listCloudPictures), []],
      [
        matchers.call.fn(savePictureToCloud),
        throwError(new CloudError('picturesRefused', 'A wallet may keep at most 20 MB')),
      ],
    ])
    .run(false);
  expect(result.returnValue).toBeNull();
  expect(result.storeState.stories.cloud.sync).toEqual({
    status: 'idle',
    problem: 'picturesRefused',
  });
  expect(result.storeState.stories.notice).toMatchObject({
    kind: 'cloudSaveFailed',
    reason: 'picturesRefused',
  });
  expect(place.picturesRefused.size).toBe(1);
});

describe('a picture the cloud will never take is left in the browser, and the others go on', () => {
  /** The story's opening and a moment kept here, the opening answered `refusal` by the cloud. */
  async function roundWith(refusal: CloudError) {
    const { id, place } = await storyWithPicture();
    const moment = await keepPicture(db, pictureOf(id, 'moment', 1));
    if (!moment.kept) throw new Error(`picture refused: ${moment.reason}`);
    const sent: number[] = [];
    const answer = [
      matchers.call.fn(savePictureToCloud),
      dynamic(({ args: [, , picture] }: { args: [unknown, string, { turn: number }] }) => {
        sent.push(picture.turn);
        if (picture.turn === 0) throw refusal;
      }),
    ] as StaticProvider;
    const queue = makeOutbox().open(CLOUD_PLACE);
    const round = () =>
      expectSaga(sendWaitingSaves, queue, place)
        .withReducer(rootReducer, state())
        .provide([...context(), [matchers.call.fn(listCloudPictures), []], answer])
        .run(false);
    const first = await round();
    // Due again (another save of the story): the refused drawing is not sent again.
    place.picturesDue.add(id);
    await round();
    return { first, sent };
  }

  test.each([
    [
      'refused for anything else (a 400)',
      'pictureFailed',
      new CloudError('failed', 'invalid media type'),
    ],
    [
      'too large for the server’s body (a 413)',
      'picturesRefused',
      new CloudError('tooLarge', 'Payload Too Large'),
    ],
  ] as const)('%s: told as %s', async (_, problem, refusal) => {
    const { first, sent } = await roundWith(refusal);
    expect(first.returnValue).toBeNull();
    expect(first.storeState.stories.cloud.sync).toEqual({ status: 'idle', problem });
    expect(first.storeState.stories.notice).toMatchObject({
      kind: 'cloudSaveFailed',
      reason: problem,
    });
    // The moment went up in the same round; the opening was asked once in all.
    expect(sent).toEqual([0, 1]);
  });

  test('a failure of the moment (no answer) still stops the round, the pictures still due', async () => {
    const { first, sent } = await roundWith(new CloudError('unreachable', 'offline'));
    expect(first.returnValue).toMatchObject({ problem: 'unreachable' });
    expect(first.storeState.stories.cloud.sync).toEqual({
      status: 'waiting',
      problem: 'unreachable',
    });
    // Tried again with the next round, the opening first each time.
    expect(sent).toEqual([0, 0]);
  });
});

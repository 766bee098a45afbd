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
import { loadMessages, registerMessageParts } from '../../../src/shared/messageParts';
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
  /**
   * The story's opening and a moment kept here, sent in two rounds: the cloud answers the
   * opening `opening` and the moment `moment` (nothing: taken) in each.
   */
  async function twoRounds(
    opening: (round: number) => CloudError | null,
    moment: (round: number) => CloudError | null = () => null,
  ) {
    const { id, place } = await storyWithPicture();
    const kept = await keepPicture(db, pictureOf(id, 'moment', 1));
    if (!kept.kept) throw new Error(`picture refused: ${kept.reason}`);
    const sent: number[][] = [];
    const answer = [
      matchers.call.fn(savePictureToCloud),
      dynamic(({ args: [, , picture] }: { args: [unknown, string, { turn: number }] }) => {
        sent.at(-1)!.push(picture.turn);
        const refusal = (picture.turn === 0 ? opening : moment)(sent.length);
        if (refusal) throw refusal;
      }),
    ] as StaticProvider;
    const queue = makeOutbox().open(CLOUD_PLACE);
    const rounds = [];
    for (let round = 1; round <= 2; round += 1) {
      sent.push([]);
      rounds.push(
        await expectSaga(sendWaitingSaves, queue, place)
          .withReducer(rootReducer, state())
          .provide([...context(), [matchers.call.fn(listCloudPictures), []], answer])
          .run(false),
      );
      // Due again (another save of the story).
      place.picturesDue.add(id);
    }
    return { rounds, sent };
  }
  const syncOf = (round: { storeState: ReturnType<typeof rootReducer> }) =>
    round.storeState.stories.cloud.sync;
  /** The message parts a round fetched (a refusal's words are the 'sharing' part's). */
  const wordsFetched = (round: { effects: { call?: unknown[] } }) =>
    (round.effects.call ?? [])
      .map((effect) => (effect as { payload: { fn: unknown; args: unknown[] } }).payload)
      .filter(({ fn }) => fn === loadMessages)
      .map(({ args }) => args[0]);
  const constraint = new CloudError('failed', 'violates check constraint', null, '23514');

  test.each([
    ['its row’s data refused (a check constraint, 23514)', 'pictureFailed', constraint],
    [
      'too large for the server’s body (a 413)',
      'picturesRefused',
      new CloudError('tooLarge', 'Payload Too Large'),
    ],
  ] as const)('%s: told as %s, never sent again', async (_, problem, refusal) => {
    const { rounds, sent } = await twoRounds(() => refusal);
    expect(rounds[0]!.returnValue).toBeNull();
    expect(syncOf(rounds[0]!)).toEqual({ status: 'idle', problem });
    expect(rounds[0]!.storeState.stories.notice).toMatchObject({
      kind: 'cloudSaveFailed',
      reason: problem,
    });
    // Its words fetched before it is told, whatever page the notice shows on.
    expect(wordsFetched(rounds[0]!)).toEqual(['sharing']);
    // The moment went up in the same round; the opening was asked once in all, and told once.
    expect(sent).toEqual([[0, 1], []]);
    expect(syncOf(rounds[1]!)).toEqual({ status: 'idle', problem: null });
  });

  test('a refusal before a failure of the moment is told when a round ends', async () => {
    const { rounds, sent } = await twoRounds(
      () => constraint,
      (round) => (round === 1 ? new CloudError('unreachable', 'offline') : null),
    );
    expect(syncOf(rounds[0]!)).toEqual({ status: 'waiting', problem: 'unreachable' });
    expect(syncOf(rounds[1]!)).toEqual({ status: 'idle', problem: 'pictureFailed' });
    expect(sent).toEqual([[0, 1], [1]]);
  });

  test.each([
    ['no answer', new CloudError('unreachable', 'offline')],
    ['a story that is not the wallet’s (42501)', new CloudError('failed', 'rls', null, '42501')],
    ['its story gone from the cloud (23503)', new CloudError('failed', 'fk', null, '23503')],
  ])('%s stops the round, the pictures still due, and the next asks again', async (_, error) => {
    const { rounds, sent } = await twoRounds(() => error);
    expect(rounds[0]!.returnValue).toMatchObject({ problem: error.problem });
    expect(syncOf(rounds[0]!)).toEqual({ status: 'waiting', problem: error.problem });
    expect(sent).toEqual([[0], [0]]);
    expect(rounds.flatMap(wordsFetched)).toEqual([]);
  });

  // Last in the file: the part's fetch stays pending for every round after it.
  test('words that do not come hold the round back a few seconds, not for ever', async () => {
    registerMessageParts({ sharing: () => new Promise(() => undefined) } as Parameters<
      typeof registerMessageParts
    >[0]);
    const { rounds, sent } = await twoRounds(() => constraint);
    expect(syncOf(rounds[0]!)).toEqual({ status: 'idle', problem: 'pictureFailed' });
    expect(wordsFetched(rounds[0]!)).toEqual(['sharing']);
    expect(sent).toEqual([[0, 1], []]);
  });
});

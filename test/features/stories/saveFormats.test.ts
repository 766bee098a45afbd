/**
 * The one save pipeline changed how a save is made, not what is kept: MyStoriesDB's records and
 * parts, and the cloud's save_story arguments, are the formats the code before it wrote
 * (test/fixtures/saves/before-one-pipeline.json, written by that code: a first save of a
 * two-turn story, then the save of its third turn, and the first cloud save of it). Records
 * written then load now, whole; a save made now writes exactly those records, so the code before
 * would load it too; and a save goes up with exactly those arguments.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic } from 'redux-saga-test-plan/providers';
import { rootReducer } from '../../../src/app/store';
import { NO_COST, type Story } from '../../../src/features/game';
import { initialSettingsState } from '../../../src/features/settings';
import {
  getStory,
  keepInBrowser,
  listStories,
  newCloudPlace,
  openStoriesDb,
  saveToCloud,
  sendToCloud,
  type StoriesDb,
} from '../../../src/features/stories';
import { recordOf } from '../../../src/features/stories/storyRecord';
import { contextProviders } from '../../support/sagaReplay';
import { verifiedWallet } from '../../fixtures/walletSessions';

interface Dump {
  stories: Record<string, unknown>[];
  storyParts: Record<string, unknown>[];
}

const fixture = JSON.parse(
  readFileSync(path.join(__dirname, '../../fixtures/saves/before-one-pipeline.json'), 'utf8'),
) as {
  wallet: string;
  story: Story;
  afterFirst: Dump;
  afterSecond: Dump;
  cloudFirstSend: Parameters<typeof saveToCloud>[1];
};
const WALLET = fixture.wallet;

/** What the story gained after the fixture was written: a save without it loads with these. */
const ADDED_SINCE: Partial<Story> = {
  storySheet: { entries: [], beforeLatest: [] },
  lorebook: [],
  cost: NO_COST,
  illustrated: false,
};

/** The story at turn `turns`, cut from the fixture's three-turn story as the game had it. */
function storyAt(turns: number): Story {
  const { story } = fixture;
  const cut = <T>(list: readonly T[], keep: number) => list.slice(0, keep);
  return {
    ...story,
    turnCount: turns,
    storyLog: cut(story.storyLog, 1 + 2 * turns),
    previousParagraph:
      story.storyLog[2 * turns]!.kind === 'paragraph' ? story.storyLog[2 * turns]!.text : '',
    storySummary: cut(story.storySummary, 1 + turns),
    outcomes: cut(story.outcomes, turns),
    moralChoices: cut(story.moralChoices, turns),
    scenarioHistory: cut(story.scenarioHistory, turns),
  };
}

let db: StoriesDb;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
});
afterEach(() => db.close());

async function dump(): Promise<Dump> {
  const tx = db.transaction(['stories', 'storyParts']);
  return {
    stories: (await tx.objectStore('stories').getAll()) as unknown as Record<string, unknown>[],
    storyParts: (await tx.objectStore('storyParts').getAll()) as unknown as Record<
      string,
      unknown
    >[],
  };
}

/** A dump with its one random part, the story's id in the cloud, named once. */
function withCloudId(value: Dump, id: string): Dump {
  return {
    ...value,
    stories: value.stories.map((record) => ({
      ...record,
      cloud: { ...(record.cloud as object), id },
    })),
  };
}

test('records the code before wrote load whole, list, and take the next save in place', async () => {
  const tx = db.transaction(['stories', 'storyParts'], 'readwrite');
  for (const record of fixture.afterSecond.stories)
    await tx.objectStore('stories').put(record as never);
  for (const part of fixture.afterSecond.storyParts) {
    await tx.objectStore('storyParts').put(part as never);
  }
  await tx.done;

  const loaded = await getStory(db, 1);
  expect(loaded?.game).toEqual({ ...fixture.story, ...ADDED_SINCE });
  expect(loaded).toMatchObject({
    walletAddress: WALLET,
    revision: 2,
    chosenCharacter: 'Ione Reef',
  });
  expect(await listStories(db, WALLET)).toHaveLength(1);

  // Played on: saved in place, at the next revision, with the same place in the cloud.
  const next = { ...fixture.story, turnCount: 4 };
  const current = { id: 1, walletAddress: WALLET, revision: 2, lastSaved: loaded!.lastSaved };
  const result = await keepInBrowser(db, recordOf(next, current), WALLET, new Date());
  expect(result).toMatchObject({ saved: true, id: 1, revision: 3, splitFrom: null });
  const { id: cloudId } = fixture.afterSecond.stories[0]!.cloud as { id: string };
  expect((await getStory(db, 1))?.cloud?.id).toBe(cloudId);
});

test('a save made now writes the very records the code before wrote', async () => {
  const first = await keepInBrowser(
    db,
    recordOf(storyAt(2), null),
    WALLET,
    new Date('2026-11-28T10:00:00.000Z'),
  );
  if (!first.saved) throw new Error('not saved');
  const cloudId = (fixture.afterFirst.stories[0]!.cloud as { id: string }).id;
  expect(withCloudId(await dump(), cloudId)).toEqual(fixture.afterFirst);

  const current = { id: first.id, walletAddress: WALLET, revision: 1, lastSaved: first.lastSaved };
  await keepInBrowser(
    db,
    recordOf(fixture.story, current),
    WALLET,
    new Date('2026-11-28T10:01:00.000Z'),
  );
  expect(withCloudId(await dump(), cloudId)).toEqual(fixture.afterSecond);
});

test('a save goes up with the very arguments the code before sent', async () => {
  const first = await keepInBrowser(
    db,
    recordOf(storyAt(2), null),
    WALLET,
    new Date('2026-11-28T10:00:00.000Z'),
  );
  if (!first.saved) throw new Error('not saved');
  const current = { id: first.id, walletAddress: WALLET, revision: 1, lastSaved: first.lastSaved };
  const kept = await keepInBrowser(
    db,
    recordOf(fixture.story, current),
    WALLET,
    new Date('2026-11-28T10:01:00.000Z'),
  );
  if (!kept.saved) throw new Error('not saved');
  const sent: Parameters<typeof saveToCloud>[1][] = [];
  await expectSaga(sendToCloud, kept, newCloudPlace())
    .withState({
      ...rootReducer(undefined, { type: 'test/init' }),
      wallet: verifiedWallet(WALLET),
      settings: { ...initialSettingsState, cloudSaves: true },
    })
    .provide([
      ...contextProviders({
        openStoriesDb: async () => db,
        walletSession: () => verifiedWallet(WALLET).session,
        backend: async () => ({ anon: {} as never, forWallet: () => ({}) as never }),
      }),
      [
        matchers.call.fn(saveToCloud),
        dynamic(({ args }: { args: [unknown, Parameters<typeof saveToCloud>[1]] }) => {
          sent.push(args[1]);
          return { saved: true, revision: 1 };
        }),
      ],
    ])
    .run(false);
  expect(sent).toEqual([{ ...fixture.cloudFirstSend, id: kept.cloud.id }]);
});

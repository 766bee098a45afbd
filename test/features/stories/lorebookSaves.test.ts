/**
 * A story's lorebook goes wherever the story is kept, as part of it (Story.lorebook): saved in
 * MyStoriesDB and loaded back, carried by an export and brought back by its import (a file
 * edited by hand read within the limits), and sent with a cloud save in the story's own record,
 * which only its wallet reads (test/server/cloudStories.test.ts: never on the published page).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic } from 'redux-saga-test-plan/providers';
import { rootReducer } from '../../../src/app/store';
import { LORE_ALWAYS_MAX, type LoreEntry } from '../../../src/engine/lorebook';
import type { Story } from '../../../src/features/game';
import { initialSettingsState } from '../../../src/features/settings';
import {
  getStory,
  keepInBrowser,
  newCloudPlace,
  openStoriesDb,
  parseStoryJson,
  saveToCloud,
  sendToCloud,
  storyToJson,
  type StoriesDb,
} from '../../../src/features/stories';
import { recordOf } from '../../../src/features/stories/storyRecord';
import { savedStory } from '../../fixtures/savedStories';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { contextProviders } from '../../support/sagaReplay';

const WALLET = '0xabcdef0000000000000000000000000000000001';

const LOREBOOK: LoreEntry[] = [
  {
    id: 'orla',
    name: 'Orla',
    keywords: ['Orla', 'ferryman’s daughter'],
    text: 'The ferryman’s daughter. She drowned in the black river and still sings under it.',
    always: true,
  },
  {
    id: 'bell',
    name: '물속의 종',
    keywords: ['종', '종소리'],
    text: '<b>Not HTML</b>: 도시가 가라앉을 때 마지막으로 울린 종.',
    always: false,
  },
];

const story = (lorebook: LoreEntry[] = LOREBOOK): Story =>
  savedStory({ game: { lorebook, storySummary: ['Mira climbed the stair.'] } }).game;

let db: StoriesDb;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
});
afterEach(() => db.close());

test('saved in MyStoriesDB with its story, and loaded back; a change is saved in place', async () => {
  const first = await keepInBrowser(db, recordOf(story(), null), WALLET, new Date());
  if (!first.saved) throw new Error('not saved');
  expect((await getStory(db, first.id))?.game.lorebook).toEqual(LOREBOOK);

  const changed = [{ ...LOREBOOK[0]!, always: false }];
  const current = { id: first.id, walletAddress: WALLET, revision: 1, lastSaved: first.lastSaved };
  await keepInBrowser(db, recordOf(story(changed), current), WALLET, new Date());
  expect((await getStory(db, first.id))?.game.lorebook).toEqual(changed);
});

test('an export carries it and its import brings it back', () => {
  const file = storyToJson(savedStory({ game: story() }));
  expect(parseStoryJson(file).game.lorebook).toEqual(LOREBOOK);
});

test('a file edited by hand comes back within the limits: what is no entry goes, never the story', () => {
  const envelope = JSON.parse(storyToJson(savedStory({ game: story() })));
  envelope.story.game.lorebook = [
    ...Array.from({ length: 5 }, (_, n) => ({ ...LOREBOOK[0], id: `a${n}`, always: true })),
    { id: 'no-text', name: 'Empty' },
    'not an entry',
    { ...LOREBOOK[1], id: 'too-long', text: 'x'.repeat(900) },
    LOREBOOK[1],
  ];
  const imported = parseStoryJson(JSON.stringify(envelope)).game;
  expect(imported.lorebook.map((entry) => entry.id)).toEqual([
    'a0',
    'a1',
    'a2',
    'a3',
    'a4',
    'bell',
  ]);
  expect(imported.lorebook.filter((entry) => entry.always)).toHaveLength(LORE_ALWAYS_MAX);
  expect(imported.storySummary).toEqual(['Mira climbed the stair.']);

  envelope.story.game.lorebook = 'a lorebook';
  expect(parseStoryJson(JSON.stringify(envelope)).game.lorebook).toEqual([]);
});

test('a cloud save sends it in the story’s own record, as MyStoriesDB keeps it', async () => {
  const kept = await keepInBrowser(db, recordOf(story(), null), WALLET, new Date());
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
  expect(sent).toHaveLength(1);
  expect(sent[0]!.head.game.lorebook).toEqual(LOREBOOK);
  // Not one of the growing lists sent entry by entry.
  expect(JSON.stringify(sent[0]!.parts)).not.toContain('ferryman');
});

/**
 * Two tabs on one story, each a real store (makeStore) with the real flows, sharing one
 * fake-indexeddb MyStoriesDB and one channel between tabs, as two tabs of a browser share them.
 * Both resume the same saved story and take turns; no paragraph either tab showed may be missing
 * from every saved record, and the tab whose line split off is told, and keeps the pictures of
 * the scenes the two lines share.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { makeStore, type AppStore } from '../../../src/app/store';
import {
  gameActions,
  initialGameState,
  initialStory,
  selectGameStage,
  type ResolvedChoice,
  type Story,
} from '../../../src/features/game';
import {
  OPENING_TURN,
  deleteStory,
  keepPicture,
  listStories,
  openStoriesDb,
  picturesOf,
  saveStory,
  storiesActions,
  type StoriesDb,
} from '../../../src/features/stories';
import { storyDraftOf } from '../../../src/features/stories/storyRecord';
import { initialWalletState } from '../../../src/features/wallet/walletSlice';
import { pictureOf } from '../../fixtures/storyPictures';
import { virtualClock } from '../../support/virtualClock';
import { fakePictureClient } from '../pictures/pictureScenes';
import { fakeTabs } from './fakeTabs';

const WALLET = '0xaaaa000000000000000000000000000000000001';
const OPENING = 'The road ends at a locked gate under a sky of iron.';
const OPTIONS = [
  { text: 'Climb the gate', risk: 'high', alignment: 'neutral', traitAlignment: '' },
  { text: 'Knock politely', risk: 'low', alignment: 'moral', traitAlignment: '' },
] as const;

const story: Story = {
  ...initialStory,
  chosenGenre: 'High Fantasy',
  chosenImage: 5,
  chosenCharacter: 'Aria Vale',
  characterBio: 'A cartographer who maps forgotten roads.',
  storyLog: [{ kind: 'paragraph', text: OPENING }],
  previousParagraph: OPENING,
  storySummary: ['Aria reached the gate.'],
  options: [...OPTIONS],
};

let factory: IDBFactory;
let db: StoriesDb;
const stores: AppStore[] = [];
beforeEach(async () => {
  factory = new IDBFactory();
  db = await openStoriesDb(factory);
});
afterEach(() => {
  stores.splice(0).forEach((store) => store.stop());
  db.close();
});

async function until(what: string, check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/**
 * A tab at the load-or-create screen with its key in, the flows started (the pictures' too, a
 * story illustrated taken up: their provider a fake that draws nothing here).
 */
function openTab(tabs: ReturnType<typeof fakeTabs>): AppStore {
  const store = makeStore({
    preloadedState: {
      game: { ...initialGameState, turn: { phase: 'home' }, apiKey: 'sk-session' },
      wallet: { ...initialWalletState, status: 'verified', address: WALLET },
    },
    context: {
      openStoriesDb: () => openStoriesDb(factory),
      openTabChannel: tabs.open,
      pictureClient: fakePictureClient(virtualClock()),
    },
  });
  stores.push(store);
  store.dispatch(storiesActions.savedStoriesRequested());
  return store;
}

/** One turn, as the game's flows report it: the choice, the paragraph, its summary. */
function playTurn(store: AppStore, paragraph: string) {
  const option = OPTIONS[0];
  const choice: ResolvedChoice = {
    turn: store.getState().game.story.turnCount + 1,
    option: { ...option },
    freeText: false,
    outcome: 'success',
    scenarioType: 'standard',
    outcomesSoFar: ['success'],
  };
  store.dispatch(gameActions.outcomeRolled(choice));
  store.dispatch(gameActions.scenarioPicked(choice));
  store.dispatch(gameActions.segmentReceived({ text: paragraph, isFinal: false }));
  store.dispatch(gameActions.optionsOffered([...OPTIONS]));
  store.dispatch(gameActions.summaryStored(`Summary: ${paragraph}`));
}

const paragraphsOf = (store: AppStore) =>
  store
    .getState()
    .game.story.storyLog.filter((entry) => entry.kind === 'paragraph')
    .map((entry) => entry.text);

async function savedParagraphs(): Promise<Set<string>> {
  const records = await listStories(db, WALLET);
  return new Set(
    records.flatMap((record) =>
      record.game.storyLog.filter((entry) => entry.kind === 'paragraph').map((entry) => entry.text),
    ),
  );
}

/** One saved story, resumed in two tabs that share the database and hear each other. */
async function twoTabsOnOneStory(played: Story = story) {
  const saved = await saveStory(db, storyDraftOf(played, null), WALLET);
  if (!saved.saved) throw new Error('not saved');
  const tabs = fakeTabs();
  const [one, two] = [openTab(tabs), openTab(tabs)];
  for (const tab of [one, two]) {
    // The flows are loaded once the list they were asked for is in.
    await until('the list is shown', () => tab.getState().stories.list.status === 'loaded');
    tab.dispatch(storiesActions.loadRequested(saved.id));
    await until('the story is resumed', () => selectGameStage(tab.getState()) === 'playing');
  }
  return { saved, one, two };
}

test('two tabs taking turns on one story: every paragraph either showed is saved, and the tab that split off is told', async () => {
  const { saved, one, two } = await twoTabsOnOneStory();

  const seen = { one: new Set<string>(), two: new Set<string>() };
  const TURNS = 6;
  for (let turn = 1; turn <= TURNS; turn += 1) {
    for (const [name, tab] of [
      ['one', one],
      ['two', two],
    ] as const) {
      const paragraph = `Turn ${turn} in tab ${name}: the lanterns sway over the valley road.`;
      playTurn(tab, paragraph);
      paragraphsOf(tab).forEach((text) => seen[name].add(text));
      // The turn's auto-save is in, here or in the story this tab split into.
      await until(`tab ${name}'s turn ${turn} is saved`, async () =>
        (await savedParagraphs()).has(paragraph),
      );
    }
  }

  const everSaved = await savedParagraphs();
  const missing = [...seen.one, ...seen.two].filter((text) => !everSaved.has(text));
  expect(missing).toEqual([]);
  expect(seen.one.size).toBe(TURNS + 1);
  expect(seen.two.size).toBe(TURNS + 1);

  // Tab one kept the story; tab two's first turn found it moved on and split off.
  const records = await listStories(db, WALLET);
  expect(records).toHaveLength(2);
  const original = records.find((record) => record.id === saved.id)!;
  const branch = records.find((record) => record.id !== saved.id)!;
  expect(original.previousParagraph).toBe(
    `Turn ${TURNS} in tab one: the lanterns sway over the valley road.`,
  );
  expect(branch).toMatchObject({
    branchOf: saved.id,
    previousParagraph: `Turn ${TURNS} in tab two: the lanterns sway over the valley road.`,
  });
  expect(one.getState().stories.otherTab).toBeNull();
  expect(two.getState().stories.otherTab).toEqual({
    status: 'branched',
    storyId: saved.id,
    branchId: branch.id,
  });
  expect(two.getState().stories.current?.id).toBe(branch.id);
});

test('a tab told that its story went on elsewhere can switch to it, and then plays on in it', async () => {
  const { saved, one, two } = await twoTabsOnOneStory();

  const elsewhere = 'In tab one, Aria crosses the river by the old ferry.';
  playTurn(one, elsewhere);
  await until('tab two hears of it', () => two.getState().stories.otherTab !== null);
  expect(two.getState().stories.otherTab).toEqual({ status: 'movedOn', storyId: saved.id });

  // Switch, as the notice offers.
  two.dispatch(storiesActions.loadRequested(saved.id));
  await until('tab two has the other tab’s turn', () => paragraphsOf(two).includes(elsewhere));
  expect(two.getState().stories.otherTab).toBeNull();

  const next = 'In tab two, Aria reaches the far bank at nightfall.';
  playTurn(two, next);
  await until('tab two’s turn is saved', async () => (await savedParagraphs()).has(next));
  // One story, played on in turn: nothing split off.
  const records = await listStories(db, WALLET);
  expect(records.map((record) => [record.id, record.revision, record.branchOf])).toEqual([
    [saved.id, 3, null],
  ]);
});

test('a tab whose line split off keeps the pictures of the scenes both lines share, under its own story', async () => {
  const { saved, one, two } = await twoTabsOnOneStory({ ...story, illustrated: true });
  // The opening's picture, drawn before the lines parted, and tab one's picture of its turn 1.
  for (const picture of [pictureOf(saved.id, 'opening'), pictureOf(saved.id, 'moment', 1)]) {
    expect((await keepPicture(db, picture)).kept).toBe(true);
  }
  playTurn(one, 'In tab one, Aria climbs the gate and drops into the orchard.');
  await until('tab two hears of it', () => two.getState().stories.otherTab !== null);
  playTurn(two, 'In tab two, Aria knocks, and a porter with a lantern lets her in.');
  await until('tab two split off', () => two.getState().stories.otherTab?.status === 'branched');
  const branch = two.getState().stories.current!.id;
  expect(branch).not.toBe(saved.id);
  await until(
    'the branch keeps its pictures',
    async () => (await picturesOf(db, branch)).length > 0,
  );

  // Only the opening is a scene of both lines; tab one's turn 1 is not tab two's.
  expect((await picturesOf(db, branch)).map((picture) => picture.turn)).toEqual([OPENING_TURN]);
  expect((await picturesOf(db, saved.id)).map((picture) => picture.turn)).toEqual([
    OPENING_TURN,
    1,
  ]);
  // The branch's copy is its own: it stays when the story it split from is deleted.
  await deleteStory(db, saved.id);
  const [kept] = await picturesOf(db, branch);
  expect(kept).toMatchObject({ storyId: branch, turn: OPENING_TURN, moment: 'opening' });
  expect(new Uint8Array(await kept!.blob.arrayBuffer())).toEqual(
    new Uint8Array(await pictureOf(saved.id, 'opening').blob.arrayBuffer()),
  );
});

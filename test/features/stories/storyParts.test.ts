/**
 * The auto-save of a long story writes what the turn changed, not the whole story again
 * (storiesDb.ts, version 3): a story's lists are kept entry by entry beside its record. Every
 * write is read back from a fresh connection, as the next visit reads it, and records saved by
 * version 2 (lists inline) still load and move their lists out on their next save.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import {
  STORIES_DB_NAME,
  type StoryDraft,
  type StoriesDb,
  getStory,
  listStories,
  openStoriesDb,
  saveStory,
} from '../../../src/features/stories';
import { initialStory, type Story } from '../../../src/features/game';

const WALLET = '0xabcdef0000000000000000000000000000000001';

/** A story as the game keeps it. */
type Game = Story;

const paragraph = (turn: number) => `Turn ${turn}: the tide turns and the bells ring again.`;

/** A game at the end of turn `turns`, as the game slice keeps it. */
function gameAt(turns: number): Game {
  const game: Game = {
    ...initialStory,
    chosenCharacter: 'Mira Vale',
    chosenGenre: 'Harbour intrigue',
    characterBio: 'A lighthouse keeper who hears the sea talk.',
    chosenImage: 4,
    previousParagraph: paragraph(0),
    storyLog: [{ kind: 'paragraph', text: paragraph(0) }],
    storySummary: ['The bells rang over the harbour.'],
    options: [{ text: 'Go on', risk: 'low', alignment: 'neutral', traitAlignment: '' }],
  };
  for (let turn = 1; turn <= turns; turn += 1) played(game);
  return game;
}

/** The next turn played on `game`, the way the slice does it: appended, the rest kept. */
function played(game: Game): Game {
  const turn = game.turnCount + 1;
  Object.assign(game, {
    turnCount: turn,
    storyLog: [
      ...game.storyLog,
      { kind: 'choice', text: `Choice ${turn}`, outcome: 'success', freeText: false },
      { kind: 'paragraph', text: paragraph(turn) },
    ],
    previousParagraph: paragraph(turn),
    storySummary: [...game.storySummary, `Summary of turn ${turn}.`],
    outcomes: [...game.outcomes, 'success'],
    moralChoices: [...game.moralChoices, 'neutral'],
    scenarioHistory: [...game.scenarioHistory, 'standard'],
  });
  return game;
}

const next = (game: Game): Game => played({ ...game });

/** The game with this log: its latest paragraph is the one the story goes on from. */
const withLog = (game: Game, storyLog: Game['storyLog']): Game => ({
  ...game,
  storyLog,
  previousParagraph: storyLog.findLast((entry) => entry.kind === 'paragraph')?.text ?? '',
});

function draftOf(game: Game, saved?: { id: number; revision: number; lastSaved: string }) {
  const latest = game.storyLog.findLast((entry) => entry.kind === 'paragraph')!;
  return {
    ...(saved && {
      id: saved.id,
      walletAddress: WALLET,
      basedOn: { revision: saved.revision, lastSaved: saved.lastSaved },
    }),
    chosenCharacter: 'Mira Vale',
    chosenGenre: 'Harbour intrigue',
    characterBio: 'A lighthouse keeper who hears the sea talk.',
    characterImage: 'characters/4.png',
    previousParagraph: latest.text,
    isFinal: false,
    endingType: '',
    game: { ...game },
  } satisfies StoryDraft;
}

let factory: IDBFactory;
const opened: StoriesDb[] = [];
const open = async () => {
  const db = await openStoriesDb(factory);
  opened.push(db);
  return db;
};

/** The records each save puts, by store. */
let puts: Record<string, number>;

beforeEach(() => {
  factory = new IDBFactory();
  puts = {};
  const put = IDBObjectStore.prototype.put;
  jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
    this: IDBObjectStore,
    ...args: Parameters<typeof put>
  ) {
    puts[this.name] = (puts[this.name] ?? 0) + 1;
    return put.apply(this, args);
  });
});

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  jest.restoreAllMocks();
});

/** Saves `game` as the next write of `saved` (a new story without it), counting the puts. */
async function save(
  db: StoriesDb,
  game: Game,
  saved?: { id: number; revision: number; lastSaved: string },
) {
  puts = {};
  const result = await saveStory(db, draftOf(game, saved), WALLET);
  if (!result.saved) throw new Error(`not saved: ${result.reason}`);
  return result;
}

/** The story as a fresh connection reads it, the way the next visit loads it. */
async function reloaded(id: number) {
  const story = await getStory(await open(), id);
  return story?.game;
}

it('writes a new story whole, and reads it back the same from a fresh connection', async () => {
  const db = await open();
  const game = gameAt(20);
  const saved = await save(db, game);

  // 41 log entries, 21 summaries and 20 of each roll, each one part; and the record.
  expect(puts).toEqual({ stories: 1, storyParts: 41 + 21 + 20 * 3 });
  expect(await reloaded(saved.id)).toEqual(game);
});

it('appends a turn: only its new entries are written, however long the story', async () => {
  const db = await open();
  let game = gameAt(99);
  let saved = await save(db, game);

  for (let turn = 0; turn < 3; turn += 1) {
    game = next(game);
    saved = await save(db, game, saved);
    // A choice and a paragraph, a summary, and one of each roll.
    expect(puts).toEqual({ stories: 1, storyParts: 2 + 1 + 3 });
  }
  expect(await reloaded(saved.id)).toEqual(game);
  // The record itself holds none of the lists.
  const record = await (await open()).get('stories', saved.id);
  expect(record?.game).not.toHaveProperty('storyLog');
  expect(record?.game).not.toHaveProperty('storySummary');
  expect(record).toMatchObject({ parts: { storyLog: 205, storySummary: 103, outcomes: 102 } });
});

it('writes a latest paragraph written again in its place, and cuts a log grown shorter', async () => {
  const db = await open();
  let game = gameAt(30);
  let saved = await save(db, game);

  // Write it again: the slice takes the paragraph and its summary back...
  game = {
    ...withLog(game, game.storyLog.slice(0, -1)),
    storySummary: game.storySummary.slice(0, -1),
  };
  saved = await save(db, game, saved);
  expect(puts).toEqual({ stories: 1 });
  expect(await reloaded(saved.id)).toEqual(game);

  // ...and the new one comes in at the same place.
  game = {
    ...withLog(game, [
      ...game.storyLog,
      { kind: 'paragraph', text: 'The tide turns the other way.' },
    ]),
    storySummary: [...game.storySummary, 'The tide turned the other way.'],
  };
  saved = await save(db, game, saved);
  expect(puts).toEqual({ stories: 1, storyParts: 2 });
  expect(await reloaded(saved.id)).toEqual(game);
});

it('writes an edited paragraph and a corrected memory, and nothing else', async () => {
  const db = await open();
  let game = gameAt(40);
  let saved = await save(db, game);

  const log = [...game.storyLog];
  log[log.length - 1] = { kind: 'paragraph', text: 'The player wrote this instead.', edited: true };
  const summaries = [...game.storySummary];
  summaries[3] = 'Corrected: the bells never rang.';
  game = { ...withLog(game, log), storySummary: summaries };
  saved = await save(db, game, saved);

  expect(puts).toEqual({ stories: 1, storyParts: 2 });
  expect(await reloaded(saved.id)).toEqual(game);
  expect((await listStories(await open(), WALLET))[0]?.game).toEqual(game);
});

it('writes only what changed after a load, the game holding copies of what was read', async () => {
  const db = await open();
  const saved = await save(db, gameAt(50));

  // Another visit: a fresh connection loads the story, and the game resumes it.
  const later = await open();
  const loaded = await getStory(later, saved.id);
  const resumed = structuredClone(loaded!.game) as unknown as Game;
  const game = next(resumed);
  const again = await save(
    later,
    game,
    loaded as { id: number; revision: number; lastSaved: string },
  );

  expect(puts).toEqual({ stories: 1, storyParts: 6 });
  expect(await reloaded(again.id)).toEqual(game);
});

it('settles two tabs by revision: the tab that missed a save keeps its line as a story of its own', async () => {
  const tabOne = await open();
  const tabTwo = await open();
  const start = gameAt(10);
  const saved = await save(tabOne, start);

  const one = next(start);
  const oneSaved = await save(tabOne, one, saved);
  expect(oneSaved).toMatchObject({ id: saved.id, revision: 2, splitFrom: null });
  expect(puts).toEqual({ stories: 1, storyParts: 6 });

  // Tab two played the same turn on the revision it loaded: its line becomes a new story,
  // written whole.
  const two = withLog(next(start), [
    ...start.storyLog,
    { kind: 'paragraph' as const, text: 'Tab two went elsewhere.' },
  ]);
  const twoSaved = await save(tabTwo, two, saved);
  expect(twoSaved).toMatchObject({ id: saved.id + 1, revision: 1, splitFrom: saved.id });
  expect(puts.storyParts).toBe(two.storyLog.length + two.storySummary.length + 3 * 11);

  // Tab one goes on appending to its own record; neither story took the other's entries.
  const onward = next(one);
  await save(tabOne, onward, oneSaved);
  expect(puts).toEqual({ stories: 1, storyParts: 6 });
  expect(await reloaded(saved.id)).toEqual(onward);
  expect(await reloaded(twoSaved.id)).toEqual(two);
});

it('writes the record whole again once another tab has saved it, so nothing stale is kept', async () => {
  const tabOne = await open();
  const saved = await save(tabOne, gameAt(12));
  // Another tab loads the record and saves a corrected memory, changing it under tab one.
  const tabTwo = await open();
  const loaded = (await getStory(tabTwo, saved.id))!;
  const corrected = { ...(loaded.game as unknown as Game) };
  corrected.storySummary = ['Corrected in tab two.', ...corrected.storySummary.slice(1)];
  const twoSaved = await save(
    tabTwo,
    corrected,
    loaded as { id: number; revision: number; lastSaved: string },
  );

  // Tab one loads it again (as the other-tab card offers) and plays on: its own copy of the
  // lists is of an older write, so this save cannot trust it.
  const reread = (await getStory(tabOne, saved.id))!;
  expect(reread.revision).toBe(twoSaved.revision);
  const game = next(reread.game as unknown as Game);
  await save(tabOne, game, reread as { id: number; revision: number; lastSaved: string });

  expect(puts).toEqual({ stories: 1, storyParts: 6 });
  expect(await reloaded(saved.id)).toEqual(game);
  expect(((await reloaded(saved.id)) as unknown as Game).storySummary[0]).toBe(
    'Corrected in tab two.',
  );
});

describe('records saved by version 2', () => {
  /** A version-2 database as the last build left it, with records of its own shape. */
  function createVersion2(records: object[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const request = factory.open(STORIES_DB_NAME, 2);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore('stories', { keyPath: 'id' });
        store.createIndex('walletAddress', 'walletAddress', { unique: false });
        for (const record of records) store.put(record);
      };
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
  }

  const game = gameAt(25);
  const version2Record = {
    ...draftOf(game),
    id: 4,
    walletAddress: WALLET,
    lastSaved: '2026-01-01T00:00:00.000Z',
    revision: 7,
    branchOf: null,
  };

  it('loads and lists a record with its lists inline, as it was saved', async () => {
    await createVersion2([version2Record]);
    const db = await open();

    expect((await getStory(db, 4))?.game).toEqual(game);
    expect((await listStories(db, WALLET)).map((story) => story.game)).toEqual([game]);
  });

  it('moves its lists out on its next save, and reads the same story after', async () => {
    await createVersion2([version2Record]);
    const db = await open();
    const loaded = (await getStory(db, 4))!;
    const onward = next(loaded.game as unknown as Game);

    const saved = await save(
      db,
      onward,
      loaded as { id: number; revision: number; lastSaved: string },
    );

    expect(saved).toMatchObject({ id: 4, revision: 8, splitFrom: null });
    expect(puts.storyParts).toBe(onward.storyLog.length + onward.storySummary.length + 3 * 26);
    const record = await (await open()).get('stories', 4);
    expect(record?.game).not.toHaveProperty('storyLog');
    expect(await reloaded(4)).toEqual(onward);
  });
});

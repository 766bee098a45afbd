import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import type { Story } from '../../../src/features/game';
import {
  STORIES_DB_NAME,
  StorageError,
  type StoryDraft,
  type StoriesDb,
  deleteFinishedStories,
  deleteStory,
  getStory,
  listStories,
  openStoriesDb,
  saveStory,
  storyIds,
} from '../../../src/features/stories';
import { savedStory } from '../../fixtures/savedStories';

const WALLET = '0xAbCdEf0000000000000000000000000000000001';
const OTHER_WALLET = '0x9999999999999999999999999999999999999999';
const PARAGRAPH = 'The lantern guttered as the door creaked open.';

/** A draft of the story, with these changes to the record and to the story it holds. */
function draft({
  game,
  ...overrides
}: Partial<Omit<StoryDraft, 'game'>> & { game?: Partial<Story> } = {}): StoryDraft {
  // The saved-story fixture, less what only the store decides (id, owner, time, revision).
  const {
    id: _id,
    walletAddress: _owner,
    lastSaved: _lastSaved,
    ...record
  } = savedStory({
    previousParagraph: PARAGRAPH,
    game: {
      previousParagraph: PARAGRAPH,
      turnCount: 3,
      storyLog: [{ kind: 'paragraph', text: PARAGRAPH }],
      ...game,
    },
  });
  return { ...record, ...overrides };
}

/** A version-1 database as the old app left it: the store without the index, flat records. */
function createVersion1(factory: IDBFactory, records: object[]): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(STORIES_DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore('stories', { keyPath: 'id' });
      for (const record of records) store.put(record);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let factory: IDBFactory;
let db: StoriesDb;
let warn: jest.SpyInstance;

beforeEach(async () => {
  factory = new IDBFactory();
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  db?.close();
  jest.restoreAllMocks();
});

describe('opening MyStoriesDB', () => {
  it('creates the stories store with its walletAddress index, the parts store and the pictures store, in a fresh database', async () => {
    db = await openStoriesDb(factory);
    expect(db.version).toBe(4);
    expect(db.objectStoreNames.contains('storyParts')).toBe(true);
    expect(db.objectStoreNames.contains('pictures')).toBe(true);
    expect(db.transaction('stories').store.indexNames.contains('walletAddress')).toBe(true);
  });

  it('upgrades a version-1 database, keeping every story and dropping the API key', async () => {
    const v1 = await createVersion1(factory, [
      {
        id: 1,
        walletAddress: WALLET,
        chosenCharacter: 'A',
        previousParagraph: PARAGRAPH,
        turnCount: 4,
        apiKey: 'sk-secret',
      },
      { id: 2, walletAddress: OTHER_WALLET, chosenCharacter: 'B' },
      { id: 5, chosenCharacter: 'C' },
    ]);
    v1.close();

    db = await openStoriesDb(factory);

    expect(await storyIds(db)).toEqual([1, 2, 5]);
    expect(db.transaction('stories').store.indexNames.contains('walletAddress')).toBe(true);
    expect(await db.getAllKeysFromIndex('stories', 'walletAddress', WALLET)).toEqual([1]);
    const first = await getStory(db, 1);
    expect(first).toMatchObject({ id: 1, chosenCharacter: 'A', game: { turnCount: 4 } });
    expect(JSON.stringify(await db.getAll('stories'))).not.toContain('apiKey');
  });

  it('reports a blocked upgrade while another tab keeps version 1 open', async () => {
    const v1 = await createVersion1(factory, [{ id: 1, chosenCharacter: 'A' }]);

    const opening = openStoriesDb(factory);

    await expect(opening).rejects.toMatchObject({ name: 'StorageError', reason: 'blocked' });
    v1.close();
    // The late upgrade still keeps the story.
    await new Promise((resolve) => setTimeout(resolve, 20));
    db = await openStoriesDb(factory);
    expect(await storyIds(db)).toEqual([1]);
  });

  it('reports storage as unavailable when the browser has no IndexedDB', async () => {
    const original = globalThis.indexedDB;
    Object.assign(globalThis, { indexedDB: undefined });
    try {
      await expect(openStoriesDb()).rejects.toMatchObject({ reason: 'unavailable' });
    } finally {
      Object.assign(globalThis, { indexedDB: original });
    }
  });
});

describe('saveStory', () => {
  beforeEach(async () => {
    db = await openStoriesDb(factory);
  });

  it.each([
    ['a non-object', null, 'notAnObject'],
    ['a string', 'story', 'notAnObject'],
    ['no character', draft({ chosenCharacter: '' }), 'missingField'],
    ['no genre', draft({ chosenGenre: '  ' }), 'missingField'],
    ['no bio', draft({ characterBio: undefined as unknown as string }), 'missingField'],
    ['no image', draft({ characterImage: '' }), 'missingField'],
    ['no previous paragraph', draft({ previousParagraph: '' }), 'missingField'],
    [
      'a 19-character paragraph',
      draft({ previousParagraph: 'x'.repeat(19) }),
      'previousParagraphTooShort',
    ],
  ])('refuses %s, logging only', async (_case, story, reason) => {
    const result = await saveStory(db, story as StoryDraft, WALLET);

    expect(result).toEqual({ saved: false, reason });
    expect(warn).toHaveBeenCalled();
    expect(await storyIds(db)).toEqual([]);
  });

  it('saves a new story with id 1, the wallet and the time, and never the API key', async () => {
    const now = new Date('2025-03-01T10:00:00.000Z');
    const result = await saveStory(
      db,
      {
        ...draft({ game: { turnCount: 3, apiKey: 'sk-secret' } as Partial<Story> }),
        apiKey: 'sk-top',
      } as StoryDraft,
      WALLET,
      now,
    );

    expect(result).toMatchObject({
      saved: true,
      id: 1,
      revision: 1,
      lastSaved: now.toISOString(),
      splitFrom: null,
      // Its id in the cloud, given now, so a result and a page can name it before it goes up.
      cloudId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
    });
    const stored = await db.get('stories', 1);
    expect(stored).toMatchObject({
      id: 1,
      walletAddress: WALLET,
      lastSaved: now.toISOString(),
      chosenCharacter: 'Mira Vale',
      game: { turnCount: 3 },
    });
    expect(JSON.stringify(stored)).not.toContain('apiKey');
  });

  it("saves as 'anonymous' without a wallet", async () => {
    await saveStory(db, draft(), null);
    expect((await getStory(db, 1))?.walletAddress).toBe('anonymous');
  });

  it('updates the same story when the wallet matches, whatever its case', async () => {
    const first = await saveStory(db, draft(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const update = draft({
      id: 1,
      walletAddress: WALLET.toLowerCase(),
      basedOn: first,
      game: { turnCount: 4 },
    });
    const again = await saveStory(db, update, WALLET);

    expect(again).toMatchObject({ saved: true, id: 1, revision: 2, splitFrom: null });
    expect(await storyIds(db)).toEqual([1]);
    expect((await getStory(db, 1))?.game).toEqual({ ...update.game, turnCount: 4 });
  });

  it("saves another wallet's story as a new copy, leaving the original", async () => {
    await saveStory(db, draft(), WALLET);
    const copy = await saveStory(db, draft({ id: 1, walletAddress: WALLET }), OTHER_WALLET);

    expect(copy).toMatchObject({ saved: true, id: 2, revision: 1, splitFrom: null });
    expect((await getStory(db, 1))?.walletAddress).toBe(WALLET);
    expect((await getStory(db, 2))?.walletAddress).toBe(OTHER_WALLET);
  });

  it('gives a new story the highest id plus one', async () => {
    await db.put('stories', { ...(await storyRecord(3)) });
    await db.put('stories', { ...(await storyRecord(7)) });

    expect(await saveStory(db, draft(), WALLET)).toMatchObject({ saved: true, id: 8 });
  });

  it('gives two saves started at once from two tabs different ids, and keeps both', async () => {
    const otherTab = await openStoriesDb(factory);
    try {
      const [first, second] = await Promise.all([
        saveStory(db, draft({ chosenCharacter: 'First' }), WALLET),
        saveStory(otherTab, draft({ chosenCharacter: 'Second' }), WALLET),
      ]);

      expect(first.saved && second.saved).toBe(true);
      expect(new Set([first, second].map((r) => (r.saved ? r.id : 0)))).toEqual(new Set([1, 2]));
      const names = (await listStories(db, WALLET)).map((s) => s.chosenCharacter).sort();
      expect(names).toEqual(['First', 'Second']);
    } finally {
      otherTab.close();
    }
  });

  it('maps a full disk to a quota error and leaves the stored stories intact', async () => {
    await saveStory(db, draft(), WALLET);
    const before = await db.getAll('stories');
    jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });

    const failing = saveStory(db, draft({ id: 1, walletAddress: WALLET, endingType: 'x' }), WALLET);
    await expect(failing).rejects.toBeInstanceOf(StorageError);
    await expect(failing).rejects.toMatchObject({ reason: 'quota' });
    await expect(saveStory(db, draft(), WALLET)).rejects.toMatchObject({ reason: 'quota' });

    jest.restoreAllMocks();
    expect(await db.getAll('stories')).toEqual(before);
  });
});

describe('two tabs on one story', () => {
  beforeEach(async () => {
    db = await openStoriesDb(factory);
  });

  /** A story saved once, and the draft a tab that loaded it makes of its next turn. */
  async function savedOnce() {
    const first = await saveStory(db, draft(), WALLET, new Date('2026-05-01T10:00:00.000Z'));
    if (!first.saved) throw new Error('not saved');
    const nextTurn = (text: string, turnCount: number, basedOn = first) =>
      draft({
        id: first.id,
        walletAddress: WALLET,
        basedOn,
        previousParagraph: text,
        game: { turnCount, storyLog: [{ kind: 'paragraph', text }] },
      });
    return { first, nextTurn };
  }

  it('counts revisions: each save of the record as this tab last saw it is the next one', async () => {
    const { nextTurn } = await savedOnce();
    const second = await saveStory(db, nextTurn('Tab one walks to the pier at dusk.', 4), WALLET);
    if (!second.saved) throw new Error('not saved');
    const third = await saveStory(
      db,
      nextTurn('Tab one boards the ferry before dawn.', 5, second),
      WALLET,
    );

    expect(third).toMatchObject({ saved: true, id: 1, revision: 3, splitFrom: null });
    expect(await getStory(db, 1)).toMatchObject({ revision: 3, branchOf: null });
  });

  it('keeps a tab’s turn as a new story when another tab saved the record since', async () => {
    const { nextTurn } = await savedOnce();
    const tabOne = await saveStory(db, nextTurn('Tab one walks to the pier at dusk.', 4), WALLET);
    const tabTwo = await saveStory(
      db,
      nextTurn('Tab two climbs the bell tower instead.', 4),
      WALLET,
      new Date('2026-05-01T10:00:05.000Z'),
    );

    expect(tabOne).toMatchObject({ saved: true, id: 1, revision: 2, splitFrom: null });
    expect(tabTwo).toMatchObject({
      saved: true,
      id: 2,
      revision: 1,
      lastSaved: '2026-05-01T10:00:05.000Z',
      splitFrom: 1,
      cloudId: expect.any(String),
    });
    // A branch is a story of its own in the cloud too.
    if (tabOne.saved && tabTwo.saved) expect(tabTwo.cloudId).not.toBe(tabOne.cloudId);
    // Nothing was overwritten: each tab's turn is in a record of its own.
    expect(await getStory(db, 1)).toMatchObject({
      previousParagraph: 'Tab one walks to the pier at dusk.',
      revision: 2,
      branchOf: null,
    });
    expect(await getStory(db, 2)).toMatchObject({
      previousParagraph: 'Tab two climbs the bell tower instead.',
      chosenCharacter: 'Mira Vale',
      walletAddress: WALLET,
      revision: 1,
      branchOf: 1,
    });
  });

  it('lets exactly one of two saves started at once from the same revision overwrite', async () => {
    const { nextTurn } = await savedOnce();
    const otherTab = await openStoriesDb(factory);
    try {
      const results = await Promise.all([
        saveStory(db, nextTurn('Tab one walks to the pier at dusk.', 4), WALLET),
        saveStory(otherTab, nextTurn('Tab two climbs the bell tower instead.', 4), WALLET),
      ]);

      const splits = results.map((result) => (result.saved ? result.splitFrom : 'refused'));
      expect(splits.sort()).toEqual([1, null]);
      const paragraphs = (await listStories(db, WALLET)).map((story) => story.previousParagraph);
      expect(paragraphs.sort()).toEqual([
        'Tab one walks to the pier at dusk.',
        'Tab two climbs the bell tower instead.',
      ]);
    } finally {
      otherTab.close();
    }
  });

  it('never overwrites a record deleted and made again under the same id', async () => {
    const { nextTurn } = await savedOnce();
    await deleteStory(db, 1);
    // Another tab's new story takes the freed id, at revision 1 like the old one.
    const remade = await saveStory(
      db,
      draft({ chosenCharacter: 'Someone New' }),
      WALLET,
      new Date('2026-05-01T10:01:00.000Z'),
    );
    expect(remade).toMatchObject({ id: 1, revision: 1 });

    const late = await saveStory(db, nextTurn('Tab one walks to the pier at dusk.', 4), WALLET);

    expect(late).toMatchObject({ saved: true, id: 2, splitFrom: 1 });
    expect((await getStory(db, 1))?.chosenCharacter).toBe('Someone New');
  });

  it('reads a record saved before revisions as revision 0, and updates it as this tab saw it', async () => {
    await db.put('stories', { ...(await storyRecord(5)), revision: undefined } as never);
    const loaded = await getStory(db, 5);
    expect(loaded?.revision).toBeUndefined();

    const next = await saveStory(
      db,
      draft({
        id: 5,
        walletAddress: WALLET,
        basedOn: { revision: 0, lastSaved: loaded!.lastSaved },
        game: { turnCount: 4 },
      }),
      WALLET,
    );
    expect(next).toMatchObject({ saved: true, id: 5, revision: 1, splitFrom: null });
  });
});

/** A complete record written straight to the store (bypassing saveStory's rules). */
async function storyRecord(id: number, overrides: object = {}) {
  return {
    id,
    walletAddress: WALLET,
    lastSaved: '2025-01-01T00:00:00.000Z',
    revision: 1,
    branchOf: null,
    ...draft(),
    ...overrides,
  };
}

describe('listStories', () => {
  beforeEach(async () => {
    db = await openStoriesDb(factory);
  });

  it("lists the wallet's complete stories case-insensitively, newest first", async () => {
    await db.put('stories', await storyRecord(1, { lastSaved: '2025-01-01T00:00:00.000Z' }));
    await db.put(
      'stories',
      await storyRecord(2, {
        walletAddress: WALLET.toLowerCase(),
        lastSaved: '2025-03-01T00:00:00.000Z',
      }),
    );
    await db.put('stories', await storyRecord(3, { walletAddress: OTHER_WALLET }));

    const stories = await listStories(db, WALLET.toUpperCase());

    expect(stories.map((s) => s.id)).toEqual([2, 1]);
  });

  it("hides and deletes the wallet's incomplete stories, not other wallets'", async () => {
    await db.put('stories', await storyRecord(1));
    await db.put('stories', await storyRecord(2, { previousParagraph: 'too short' }));
    await db.put('stories', await storyRecord(3, { characterImage: '' }));
    await db.put('stories', await storyRecord(4, { previousParagraph: 42 }));
    await db.put(
      'stories',
      await storyRecord(5, { walletAddress: OTHER_WALLET, characterBio: '' }),
    );

    expect((await listStories(db, WALLET)).map((s) => s.id)).toEqual([1]);
    expect(await storyIds(db)).toEqual([1, 5]);
  });

  it("lists the 'anonymous' stories without a wallet", async () => {
    await saveStory(db, draft(), null);
    await saveStory(db, draft(), WALLET);

    expect((await listStories(db, null)).map((s) => s.walletAddress)).toEqual(['anonymous']);
  });
});

describe('deleting', () => {
  beforeEach(async () => {
    db = await openStoriesDb(factory);
  });

  it('deletes one story by id', async () => {
    await saveStory(db, draft(), WALLET);
    await saveStory(db, draft(), WALLET);

    await deleteStory(db, 1);

    expect(await storyIds(db)).toEqual([2]);
    expect(await getStory(db, 1)).toBeUndefined();
  });

  it('deletes the final stories of that character and ending for that wallet only', async () => {
    const final = { isFinal: true, endingType: 'Heroic Victory' };
    await db.put('stories', await storyRecord(1, final));
    await db.put(
      'stories',
      await storyRecord(2, { ...final, walletAddress: WALLET.toLowerCase() }),
    );
    await db.put('stories', await storyRecord(3, { ...final, endingType: 'Tragic Downfall' }));
    await db.put('stories', await storyRecord(4, { ...final, chosenCharacter: 'Someone Else' }));
    await db.put('stories', await storyRecord(5, { endingType: 'Heroic Victory' }));
    await db.put('stories', await storyRecord(6, { ...final, walletAddress: OTHER_WALLET }));

    const deleted = await deleteFinishedStories(db, WALLET, 'Mira Vale', 'Heroic Victory');

    expect(deleted).toEqual([1, 2]);
    expect(await storyIds(db)).toEqual([3, 4, 5, 6]);
  });
});

// A story's pictures in MyStoriesDB (issue 41, part 4): the version-4 upgrade keeps every story,
// pictures are kept, read and forgotten by story and turn within their bounds, and a story's
// deletion takes its pictures with it, in the same transaction.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../../src/app/store';
import {
  ENDING_TURN,
  MAX_MOMENT_PICTURES,
  OPENING_TURN,
  MAX_PICTURE_BYTES,
  STORIES_DB_NAME,
  STORIES_DB_VERSION,
  type StoriesDb,
  type StoryDraft,
  deleteFinishedStories,
  deleteSaved,
  deleteStory,
  forgetPictures,
  getStory,
  keepPicture,
  listStories,
  openStoriesDb,
  pictureAt,
  picturesOf,
  copySharedPictures,
  saveStory,
  sharesScene,
  storiesActions,
} from '../../../src/features/stories';
import { savedStory } from '../../fixtures/savedStories';
import { jpegBytes, pictureOf, pngBytes, webpBytes } from '../../fixtures/storyPictures';
import { contextProviders } from '../../support/sagaReplay';

const WALLET = '0xabc0000000000000000000000000000000000001';

function draft(overrides: Partial<StoryDraft> = {}): StoryDraft {
  const { id: _id, walletAddress: _owner, lastSaved: _lastSaved, ...record } = savedStory();
  return { ...record, ...overrides };
}

async function savedId(overrides: Partial<StoryDraft> = {}): Promise<number> {
  const saved = await saveStory(db, draft(overrides), WALLET);
  if (!saved.saved) throw new Error(`not saved: ${saved.reason}`);
  return saved.id;
}

async function keep(...args: Parameters<typeof pictureOf>) {
  const result = await keepPicture(db, pictureOf(...args));
  if (!result.kept) throw new Error(`picture refused: ${result.reason}`);
  return result.picture;
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

let factory: IDBFactory;
let db: StoriesDb;
beforeEach(async () => {
  factory = new IDBFactory();
  db = await openStoriesDb(factory);
});
afterEach(() => db.close());

describe('MyStoriesDB version 4', () => {
  test('a fresh database has the pictures store, keyed by story and turn', () => {
    expect(db.version).toBe(STORIES_DB_VERSION);
    expect(STORIES_DB_VERSION).toBe(4);
    const store = db.transaction('pictures').store;
    expect(store.keyPath).toEqual(['storyId', 'turn']);
  });

  test('an upgrade from version 3 keeps every story, record and parts, as it was', async () => {
    db.close();
    // Records and parts as version 3 wrote them (test/fixtures/saves, written by that code).
    const fixture = JSON.parse(
      readFileSync(path.join(__dirname, '../../fixtures/saves/before-one-pipeline.json'), 'utf8'),
    ) as { wallet: string; afterSecond: { stories: object[]; storyParts: object[] } };
    const old = new IDBFactory();
    const second = { ...(fixture.afterSecond.stories[0] as object), id: 7 };
    await new Promise<void>((resolve, reject) => {
      const request = old.open(STORIES_DB_NAME, 3);
      request.onupgradeneeded = () => {
        const v3 = request.result;
        const stories = v3.createObjectStore('stories', { keyPath: 'id' });
        stories.createIndex('walletAddress', 'walletAddress', { unique: false });
        const parts = v3.createObjectStore('storyParts', { keyPath: ['storyId', 'list', 'index'] });
        for (const record of fixture.afterSecond.stories) stories.put(record);
        for (const part of fixture.afterSecond.storyParts) parts.put(part);
        stories.put(second);
      };
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    const before = fixture.afterSecond.stories as { id: number }[];

    db = await openStoriesDb(old);

    expect(db.version).toBe(4);
    expect(await db.getAll('stories')).toEqual([...before, second]);
    expect(await db.getAll('storyParts')).toEqual(fixture.afterSecond.storyParts);
    expect(await db.count('pictures')).toBe(0);
    const story = await getStory(db, before[0]!.id);
    expect(story?.game.turnCount).toBe(3);
    expect((await listStories(db, fixture.wallet)).map(({ id }) => id)).toEqual([before[0]!.id, 7]);
    // And the old stories take pictures now.
    expect((await keepPicture(db, pictureOf(7, 'opening'))).kept).toBe(true);
  });
});

describe('keeping and reading pictures', () => {
  test('keeps the opening, moments and the ending, read back whole in the story’s order', async () => {
    const id = await savedId();
    await keep(id, 'ending');
    await keep(id, 'moment', 3);
    await keep(id, 'opening');
    await keep(id, 'moment', 1);

    const pictures = await picturesOf(db, id);

    expect(pictures.map(({ moment, turn }) => [moment, turn])).toEqual([
      ['opening', 0],
      ['moment', 1],
      ['moment', 3],
      ['ending', ENDING_TURN],
    ]);
    const moment = await pictureAt(db, id, 3);
    expect(moment).toMatchObject({
      storyId: id,
      turn: 3,
      moment: 'moment',
      mediaType: 'image/webp',
      width: 768,
      height: 512,
      bytes: 2048,
      model: 'gpt-image-1',
      createdAt: '2026-11-28T10:00:00.000Z',
    });
    expect(moment?.alt).toContain('turn 3');
    expect(await bytesOf(moment!.blob)).toEqual(webpBytes(2048, 3));
    expect(await pictureAt(db, id, 2)).toBeUndefined();
  });

  test('a picture drawn again for a turn replaces the one it had', async () => {
    const id = await savedId();
    await keep(id, 'moment', 2);
    const jpeg = new Blob([jpegBytes(4000)], { type: 'image/jpeg' });
    await keep(id, 'moment', 2, { blob: jpeg, model: 'flux' });

    const pictures = await picturesOf(db, id);
    expect(pictures).toHaveLength(1);
    expect(pictures[0]).toMatchObject({ mediaType: 'image/jpeg', bytes: 4000, model: 'flux' });
  });

  test('each story reads only its own pictures', async () => {
    const first = await savedId();
    const second = await savedId();
    await keep(first, 'opening');
    await keep(second, 'opening');
    await keep(second, 'moment', 1);
    expect((await picturesOf(db, first)).map(({ storyId }) => storyId)).toEqual([first]);
    expect(await picturesOf(db, second)).toHaveLength(2);
  });

  test('a save of the story leaves its pictures alone', async () => {
    const saved = await saveStory(db, draft(), WALLET);
    if (!saved.saved) throw new Error('not saved');
    await keep(saved.id, 'opening');
    const again = await saveStory(db, { ...draft(), id: saved.id, basedOn: saved }, WALLET);
    expect(again).toMatchObject({ saved: true, id: saved.id });
    expect(await picturesOf(db, saved.id)).toHaveLength(1);
  });

  test.each([
    ['noStory', () => pictureOf(99, 'opening')],
    ['wrongTurn', () => pictureOf(1, 'opening', 1, { turn: 2 })],
    ['wrongTurn', () => pictureOf(1, 'moment', 0)],
    ['wrongTurn', () => pictureOf(1, 'ending', 1, { turn: 5 })],
    ['badSize', () => pictureOf(1, 'opening', 1, { width: 0 })],
    ['badSize', () => pictureOf(1, 'opening', 1, { height: 4096 })],
    ['notAPicture', () => pictureOf(1, 'opening', 1, { createdAt: 'yesterday' })],
    [
      'unsupportedType',
      () => pictureOf(1, 'opening', 1, { blob: new Blob([pngBytes()], { type: 'image/png' }) }),
    ],
    [
      'notItsType',
      () => pictureOf(1, 'opening', 1, { blob: new Blob([jpegBytes()], { type: 'image/webp' }) }),
    ],
    [
      'notItsType',
      () => pictureOf(1, 'opening', 1, { blob: new Blob(['<svg/>'], { type: 'image/jpeg' }) }),
    ],
    [
      'tooLarge',
      () =>
        pictureOf(1, 'opening', 1, {
          blob: new Blob([webpBytes(MAX_PICTURE_BYTES + 1)], { type: 'image/webp' }),
        }),
    ],
  ] as const)('refuses a picture with %s, keeping nothing', async (reason, picture) => {
    const id = await savedId();
    expect(id).toBe(1);
    expect(await keepPicture(db, picture())).toEqual({ kept: false, reason });
    expect(await db.count('pictures')).toBe(0);
  });

  test(`keeps at most ${MAX_MOMENT_PICTURES} moments; the opening, the ending and a redrawn moment still fit`, async () => {
    const id = await savedId();
    for (let turn = 1; turn <= MAX_MOMENT_PICTURES; turn += 1) await keep(id, 'moment', turn);

    expect(await keepPicture(db, pictureOf(id, 'moment', MAX_MOMENT_PICTURES + 1))).toEqual({
      kept: false,
      reason: 'tooMany',
    });
    expect((await keepPicture(db, pictureOf(id, 'moment', 5, { model: 'again' }))).kept).toBe(true);
    expect((await keepPicture(db, pictureOf(id, 'opening'))).kept).toBe(true);
    expect((await keepPicture(db, pictureOf(id, 'ending'))).kept).toBe(true);
    const pictures = await picturesOf(db, id);
    expect(pictures).toHaveLength(40);
    expect(pictures.find(({ turn }) => turn === 5)?.model).toBe('again');
  });

  test('forgetting a story’s pictures keeps the story and the other stories’ pictures', async () => {
    const id = await savedId();
    const other = await savedId();
    await keep(id, 'opening');
    await keep(id, 'ending');
    await keep(other, 'opening');

    expect(await forgetPictures(db, id)).toBe(2);

    expect(await picturesOf(db, id)).toEqual([]);
    expect(await picturesOf(db, other)).toHaveLength(1);
    expect(await getStory(db, id)).toMatchObject({ id });
  });
});

describe('a deleted story takes its pictures', () => {
  test('deleteStory deletes the record, its parts and its pictures, and nothing of another story', async () => {
    const id = await savedId();
    const other = await savedId();
    await keep(id, 'opening');
    await keep(id, 'moment', 1);
    await keep(other, 'opening');

    await deleteStory(db, id);

    expect(await getStory(db, id)).toBeUndefined();
    expect(await picturesOf(db, id)).toEqual([]);
    expect(await picturesOf(db, other)).toHaveLength(1);
    // A picture that arrives after its story was deleted is not kept.
    expect(await keepPicture(db, pictureOf(id, 'moment', 2))).toEqual({
      kept: false,
      reason: 'noStory',
    });
  });

  test('the delete worker (deleting.ts) takes the pictures with the story', async () => {
    const id = await savedId();
    await keep(id, 'opening');
    await keep(id, 'ending');

    const result = await expectSaga(deleteSaved, storiesActions.deleteConfirmed(id))
      .withReducer(rootReducer)
      .provide(contextProviders({ openStoriesDb: () => Promise.resolve(db) }))
      .run(false);

    expect(result.effects.put?.map(({ payload }) => payload.action)).toEqual([
      storiesActions.storyDeleted(id),
    ]);
    expect(await db.count('pictures')).toBe(0);
    expect(await db.count('stories')).toBe(0);
  });

  test('the final stories deleted after the leaderboard take their pictures', async () => {
    const final = await savedId({ isFinal: true, endingType: 'heroic' });
    const playing = await savedId();
    await keep(final, 'ending');
    await keep(playing, 'opening');

    expect(await deleteFinishedStories(db, WALLET, 'Mira Vale', 'heroic')).toEqual([final]);

    expect(await picturesOf(db, final)).toEqual([]);
    expect(await picturesOf(db, playing)).toHaveLength(1);
  });
});

describe('the scenes two lines of a story share (a branch keeps their pictures)', () => {
  const log = (...paragraphs: string[]) =>
    paragraphs.flatMap((text, index) => [
      ...(index > 0 ? [{ kind: 'choice', text: `Choice ${index}` }] : []),
      { kind: 'paragraph', text },
    ]);

  test('turns before the first paragraph that differs; the ending only where the lines are one', () => {
    const shares = sharesScene(log('Gate', 'Orchard', 'Well'), log('Gate', 'Orchard', 'Tower'));
    expect([OPENING_TURN, 1, 2, 3, ENDING_TURN].map(shares)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    const same = sharesScene(log('Gate', 'Orchard'), log('Gate', 'Orchard'));
    expect([OPENING_TURN, 1, 2, ENDING_TURN].map(same)).toEqual([true, true, false, true]);
  });

  test('a line that went no further shares what it has, but not the ending of the longer one', () => {
    const shares = sharesScene(log('Gate', 'Orchard', 'Well'), log('Gate', 'Orchard'));
    expect([OPENING_TURN, 1, 2, ENDING_TURN].map(shares)).toEqual([true, true, false, false]);
  });

  test('lines parted from the opening share nothing; the choices between paragraphs do not count', () => {
    expect([OPENING_TURN, ENDING_TURN].map(sharesScene(log('Gate'), log('Ferry')))).toEqual([
      false,
      false,
    ]);
    const otherChoices = log('Gate', 'Orchard').map((entry) =>
      entry.kind === 'choice' ? { ...entry, text: 'Another choice' } : entry,
    );
    expect(sharesScene(log('Gate', 'Orchard'), otherChoices)(ENDING_TURN)).toBe(true);
  });
});

describe('the pictures a branch keeps of the story it split from', () => {
  const paragraphs = (...texts: string[]) =>
    texts.map((text) => ({ kind: 'paragraph' as const, text }));
  const lines = async (shared: number, more = 1) => {
    const common = Array.from({ length: shared }, (_, turn) => `Scene ${turn}`);
    const from = await savedId({
      game: { ...draft().game, storyLog: paragraphs(...common, 'Theirs') },
    });
    const branch = await savedId({
      game: {
        ...draft().game,
        storyLog: paragraphs(...common, ...Array.from({ length: more }, (_, i) => `Ours ${i}`)),
      },
    });
    return { from, branch };
  };
  const turnsOf = async (id: number) => (await picturesOf(db, id)).map((picture) => picture.turn);

  test('copies the shared scenes’ pictures, whole, under the branch; the story it left keeps its own', async () => {
    const { from, branch } = await lines(3);
    await keep(from, 'opening');
    await keep(from, 'moment', 2);
    await keep(from, 'moment', 3);
    expect(await copySharedPictures(db, from, branch)).toEqual([OPENING_TURN, 2]);
    expect(await turnsOf(branch)).toEqual([OPENING_TURN, 2]);
    expect(await turnsOf(from)).toEqual([OPENING_TURN, 2, 3]);
    const [copy] = await picturesOf(db, branch);
    const [original] = await picturesOf(db, from);
    expect({ ...copy, blob: undefined }).toEqual({ ...original, storyId: branch, blob: undefined });
    expect(await bytesOf(copy!.blob)).toEqual(await bytesOf(original!.blob));
  });

  test('a picture the branch drew of its own stays; its moments stay within their bound', async () => {
    const { from, branch } = await lines(MAX_MOMENT_PICTURES + 2);
    for (let turn = 1; turn <= MAX_MOMENT_PICTURES; turn += 1) await keep(from, 'moment', turn);
    const own = await keep(branch, 'moment', 1, { alt: 'The branch’s own drawing of turn 1.' });
    await keep(branch, 'moment', MAX_MOMENT_PICTURES + 1);
    const copied = await copySharedPictures(db, from, branch);
    // Turn 1 is the branch's own; of the rest, as many as the bound leaves room for.
    expect(copied).toEqual(Array.from({ length: MAX_MOMENT_PICTURES - 2 }, (_, i) => i + 2));
    expect((await pictureAt(db, branch, 1))?.alt).toBe(own.alt);
    expect((await turnsOf(branch)).filter((turn) => turn >= 1)).toHaveLength(MAX_MOMENT_PICTURES);
  });

  test('nothing is copied to a branch that is gone, or from a story that is', async () => {
    const { from, branch } = await lines(2);
    await keep(from, 'opening');
    await deleteStory(db, branch);
    expect(await copySharedPictures(db, from, branch)).toEqual([]);
    expect(await turnsOf(branch)).toEqual([]);
    const again = await lines(2);
    await deleteStory(db, again.from);
    expect(await copySharedPictures(db, again.from, again.branch)).toEqual([]);
  });

  test('a branch deleted after both lines were read, before the copy, keeps nothing', async () => {
    const { from, branch } = await lines(2);
    await keep(from, 'opening');
    // The branch's delete is asked just before the copy's own transaction: IndexedDB runs
    // readwrite transactions over the same stores in the order they were made, the delete first.
    let deleted: Promise<void> | null = null;
    const deletedMeanwhile = new Proxy(db, {
      get(target, key) {
        if (key === 'transaction') {
          return (...args: Parameters<StoriesDb['transaction']>) => {
            if (args[1] === 'readwrite' && deleted === null) deleted = deleteStory(target, branch);
            return target.transaction(...args);
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await copySharedPictures(deletedMeanwhile, from, branch)).toEqual([]);
    expect(deleted).not.toBeNull();
    await deleted;
    expect(await turnsOf(branch)).toEqual([]);
    expect(await turnsOf(from)).toEqual([OPENING_TURN]);
  });
});

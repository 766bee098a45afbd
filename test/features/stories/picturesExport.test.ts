// A story's pictures in its JSON export (issue 41, part 4): version 2 carries them as base64 with
// their metadata, or none in the smaller file; version 1 files still import; an import keeps
// them under the new story's id, and a bad picture is skipped with its typed reason, never the
// story.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../../src/app/store';
import {
  ENDING_TURN,
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_STORY,
  type ExportedPicture,
  type SavedStory,
  type StoriesDb,
  type StoryDraft,
  getStory,
  importStory,
  keepPicture,
  openStoriesDb,
  parseStoryFile,
  parseStoryJson,
  picturesOf,
  saveStory,
  storiesActions,
  storyFileOf,
  storyToJson,
} from '../../../src/features/stories';
import { bytesToBase64 } from '../../../src/features/stories/pictures/base64';
import { savedStory } from '../../fixtures/savedStories';
import { jpegBytes, pictureOf, pngBytes, webpBytes } from '../../fixtures/storyPictures';
import { contextProviders } from '../../support/sagaReplay';

const WALLET = '0xabc0000000000000000000000000000000000001';

let db: StoriesDb;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
});
afterEach(() => db.close());

function draft(): StoryDraft {
  const { id: _id, walletAddress: _owner, lastSaved: _lastSaved, ...record } = savedStory();
  return record;
}

/** A saved story with its opening, a moment at turn 2 (a JPEG) and its ending. */
async function illustratedStory(): Promise<SavedStory> {
  const saved = await saveStory(db, draft(), WALLET);
  if (!saved.saved) throw new Error('not saved');
  const jpeg = new Blob([jpegBytes(3000)], { type: 'image/jpeg' });
  for (const picture of [
    pictureOf(saved.id, 'opening'),
    pictureOf(saved.id, 'moment', 2, { blob: jpeg, width: 512, height: 768 }),
    pictureOf(saved.id, 'ending', 1, { alt: 'The keeper’s last light.' }),
  ]) {
    expect((await keepPicture(db, picture)).kept).toBe(true);
  }
  return (await getStory(db, saved.id))!;
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/** An exported picture as a file holds it, with these changes. */
function exported(overrides: Partial<ExportedPicture> = {}): ExportedPicture {
  const bytes = webpBytes(1500);
  return {
    moment: 'moment',
    turn: 1,
    mediaType: 'image/webp',
    width: 768,
    height: 512,
    bytes: bytes.length,
    alt: 'The door creaked open.',
    model: 'gpt-image-1',
    createdAt: '2026-11-28T10:00:00.000Z',
    data: bytesToBase64(bytes),
    ...overrides,
  };
}

function fileWith(pictures: unknown[]): string {
  const envelope = JSON.parse(storyToJson(savedStory()));
  return JSON.stringify({ ...envelope, pictures });
}

function importRun(text: string) {
  return expectSaga(importStory, storiesActions.importRequested(text))
    .withReducer(rootReducer)
    .provide(contextProviders({ openStoriesDb: () => Promise.resolve(db) }))
    .run(false);
}

const putsOf = (run: Awaited<ReturnType<typeof importRun>>) =>
  (run.effects.put ?? []).map(
    ({ payload }) => payload.action as { type: string; payload?: unknown },
  );

describe('exporting a story with its pictures', () => {
  test('version 2 carries each picture as base64 with its metadata, in the story’s order', async () => {
    const story = await illustratedStory();

    const envelope = JSON.parse(await storyFileOf(db, story, { withPictures: true }));

    expect(envelope).toMatchObject({ format: 'taleweaver-story', version: 2 });
    expect(envelope.pictures.map(({ moment, turn }: ExportedPicture) => [moment, turn])).toEqual([
      ['opening', 0],
      ['moment', 2],
      ['ending', ENDING_TURN],
    ]);
    expect(envelope.pictures[1]).toEqual({
      moment: 'moment',
      turn: 2,
      mediaType: 'image/jpeg',
      width: 512,
      height: 768,
      bytes: 3000,
      alt: expect.stringContaining('turn 2'),
      model: 'gpt-image-1',
      createdAt: '2026-11-28T10:00:00.000Z',
      data: bytesToBase64(jpegBytes(3000)),
    });
    expect(envelope.pictures[2].alt).toBe('The keeper’s last light.');
    // Never the story's id, wallet or key in a picture.
    expect(Object.keys(envelope.pictures[0])).not.toContain('storyId');
  });

  test('the smaller file leaves the pictures out', async () => {
    const story = await illustratedStory();
    const full = await storyFileOf(db, story, { withPictures: true });
    const smaller = await storyFileOf(db, story, { withPictures: false });

    expect(JSON.parse(smaller)).toMatchObject({ version: 2, pictures: [] });
    expect(smaller.length).toBeLessThan(full.length - 6000);
    expect(parseStoryJson(smaller)).toEqual(parseStoryJson(full));
  });
});

describe('importing a story with its pictures', () => {
  test('round trip: the imported story is a new story with the same pictures, byte for byte', async () => {
    const story = await illustratedStory();
    const file = await storyFileOf(db, story, { withPictures: true });

    const run = await importRun(file);

    expect(putsOf(run).map(({ type }) => type)).toEqual([
      'stories/storyImported',
      'stories/savedStoriesRequested',
    ]);
    const newId = story.id + 1;
    expect(await getStory(db, newId)).toMatchObject({ chosenCharacter: story.chosenCharacter });
    const before = await picturesOf(db, story.id);
    const after = await picturesOf(db, newId);
    expect(after.map(({ blob: _blob, storyId: _id, ...rest }) => rest)).toEqual(
      before.map(({ blob: _blob, storyId: _id, ...rest }) => rest),
    );
    for (const [index, picture] of after.entries()) {
      expect(picture.storyId).toBe(newId);
      expect(await bytesOf(picture.blob)).toEqual(await bytesOf(before[index]!.blob));
    }
  });

  test('a file without pictures imports the story alone', async () => {
    const story = await illustratedStory();
    await importRun(await storyFileOf(db, story, { withPictures: false }));
    expect(await getStory(db, story.id + 1)).toBeDefined();
    expect(await picturesOf(db, story.id + 1)).toEqual([]);
  });

  test('a version-1 file (before pictures) still imports', async () => {
    const envelope = JSON.parse(storyToJson(savedStory()));
    const v1 = JSON.stringify({ format: 'taleweaver-story', version: 1, story: envelope.story });
    expect(parseStoryFile(v1)).toEqual({ story: envelope.story, pictures: [], skipped: [] });

    const run = await importRun(v1);

    expect(putsOf(run).map(({ type }) => type)).toContain('stories/storyImported');
    expect(await getStory(db, 1)).toMatchObject({ chosenCharacter: 'Mira Vale' });
  });

  test('a bad picture is skipped with its reason; the story and the good pictures are kept', async () => {
    const jpegAsWebp = bytesToBase64(jpegBytes(1000));
    const huge = bytesToBase64(webpBytes(MAX_PICTURE_BYTES + 10));
    const file = fileWith([
      exported({ moment: 'opening', turn: 0 }),
      exported({ turn: 2, data: jpegAsWebp }),
      exported({ turn: 3, mediaType: 'image/png' as never, data: bytesToBase64(pngBytes()) }),
      exported({ turn: 4, data: 'not base64 at all!' }),
      exported({ turn: 5, data: huge }),
      exported({ moment: 'opening', turn: 6 }),
      exported({ turn: 7, width: 100_000 }),
      { turn: 8, data: 'AAAA' },
      'a picture',
      exported({ turn: 9, mediaType: 'image/jpeg', data: bytesToBase64(jpegBytes(800)) }),
      exported({ moment: 'opening', turn: 0, model: 'a second opening' }),
      exported({ turn: 10, data: '' }),
    ]);

    const { pictures, skipped } = parseStoryFile(file);
    expect(pictures.map(({ turn }) => turn)).toEqual([0, 9]);
    expect(skipped).toEqual([
      { index: 1, turn: 2, reason: 'notItsType' },
      { index: 2, turn: 3, reason: 'unsupportedType' },
      { index: 3, turn: 4, reason: 'notBase64' },
      { index: 4, turn: 5, reason: 'tooLarge' },
      { index: 5, turn: 6, reason: 'wrongTurn' },
      { index: 6, turn: 7, reason: 'badSize' },
      { index: 7, turn: 8, reason: 'notAPicture' },
      { index: 8, turn: null, reason: 'notAPicture' },
      { index: 10, turn: 0, reason: 'duplicateTurn' },
      { index: 11, turn: 10, reason: 'notItsType' },
    ]);

    const run = await importRun(file);

    const puts = putsOf(run);
    expect(puts.map(({ type }) => type)).toEqual([
      'stories/picturesSkipped',
      'stories/storyImported',
      'stories/savedStoriesRequested',
    ]);
    expect(puts[0]?.payload).toEqual({ storyId: 1, skipped });
    expect((await picturesOf(db, 1)).map(({ turn, mediaType }) => [turn, mediaType])).toEqual([
      [0, 'image/webp'],
      [9, 'image/jpeg'],
    ]);
  });

  test(`pictures beyond ${MAX_PICTURES_PER_STORY} are skipped`, () => {
    const many = Array.from({ length: MAX_PICTURES_PER_STORY + 2 }, (_, index) =>
      exported({ turn: index + 1 }),
    );
    const { pictures, skipped } = parseStoryFile(fileWith(many));
    expect(pictures).toHaveLength(MAX_PICTURES_PER_STORY);
    expect(skipped.map(({ reason }) => reason)).toEqual(['tooMany', 'tooMany']);
  });

  test('moments the store refuses beyond its bound are named too, and the story is imported', async () => {
    // 40 moments: the file's bound holds them, the store keeps 38 moments besides the opening and ending.
    const moments = Array.from({ length: MAX_PICTURES_PER_STORY }, (_, index) =>
      exported({ turn: index + 1 }),
    );
    const run = await importRun(fileWith(moments));
    const skipped = putsOf(run).find(({ type }) => type === 'stories/picturesSkipped');
    expect(skipped?.payload).toEqual({
      storyId: 1,
      skipped: [
        { index: 38, turn: 39, reason: 'tooMany' },
        { index: 39, turn: 40, reason: 'tooMany' },
      ],
    });
    expect(await picturesOf(db, 1)).toHaveLength(38);
    expect(await getStory(db, 1)).toBeDefined();
  });

  test('a picture the storage fails to keep is skipped as storageFailed, the story imported', async () => {
    const failing = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown;
        return (stores: string[], mode: IDBTransactionMode) => {
          if (stores.includes('pictures') && mode === 'readwrite') {
            throw new DOMException('The disk is full', 'QuotaExceededError');
          }
          return target.transaction(stores as never, mode);
        };
      },
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const run = await expectSaga(
      importStory,
      storiesActions.importRequested(fileWith([exported({ turn: 1 })])),
    )
      .withReducer(rootReducer)
      .provide(contextProviders({ openStoriesDb: () => Promise.resolve(failing) }))
      .run(false);
    warn.mockRestore();

    expect(putsOf(run)[0]?.payload).toEqual({
      storyId: 1,
      skipped: [{ index: 0, turn: 1, reason: 'storageFailed' }],
    });
    expect(putsOf(run).map(({ type }) => type)).toContain('stories/storyImported');
    expect(await getStory(db, 1)).toBeDefined();
  });
});

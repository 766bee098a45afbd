// Where a story's pictures are kept in the browser (issue 41, part 4): MyStoriesDB's 'pictures'
// store (browserDb.ts, version 4), one compressed Blob per [storyId, turn], apart from the
// record: a save of the story never reads, clones or rewrites them. Deleting a story deletes its
// pictures in the same transaction (browserPlace.ts, deleteRecord), so no picture outlives its
// story, even in a tab closed mid-way.
import { isRecord } from '../../engine/guards';
import { type StoriesDb, PICTURES, STORE, inTransaction, picturesKeyRange } from './browserDb';
import { getStory } from './browserPlace';
import {
  ENDING_TURN,
  MAGIC_BYTES,
  MAX_ALT_LENGTH,
  MAX_MOMENT_PICTURES,
  type PictureRefusal,
  type PictureToKeep,
  type StoryPicture,
  inStoryOrder,
  pictureProblem,
} from './pictures/storyPicture';

export type KeepPictureResult =
  { kept: true; picture: StoryPicture } | { kept: false; reason: PictureRefusal };

/**
 * Keeps a picture of a saved story, replacing the one its turn had. Refused, never thrown: a
 * picture that is not a bounded WebP or JPEG its bytes confirm ('notItsType', 'tooLarge', ...),
 * one for a story that is not kept ('noStory': deleted while it was drawn), and a new moment of
 * a story that has MAX_MOMENT_PICTURES of them ('tooMany'). Storage failures throw a
 * StorageError, like a save's.
 */
export async function keepPicture(
  db: StoriesDb,
  offered: PictureToKeep,
): Promise<KeepPictureResult> {
  // Read before the transaction: IndexedDB commits a transaction that waits on anything else.
  const head = new Uint8Array(await offered.blob.slice(0, MAGIC_BYTES).arrayBuffer());
  const checked = pictureProblem({ ...offered }, offered.blob.type, offered.blob.size, head);
  if ('problem' in checked) return { kept: false, reason: checked.problem };
  if (!Number.isSafeInteger(offered.storyId)) return { kept: false, reason: 'noStory' };
  const picture: StoryPicture = {
    storyId: offered.storyId,
    turn: offered.turn,
    moment: offered.moment,
    blob: offered.blob,
    mediaType: checked.mediaType,
    width: offered.width,
    height: offered.height,
    bytes: offered.blob.size,
    alt: offered.alt.slice(0, MAX_ALT_LENGTH),
    model: offered.model,
    createdAt: offered.createdAt,
  };
  return inTransaction(
    db,
    'readwrite',
    async (tx): Promise<KeepPictureResult> => {
      if ((await tx.objectStore(STORE).count(picture.storyId)) === 0) {
        return { kept: false, reason: 'noStory' };
      }
      const pictures = tx.objectStore(PICTURES);
      const key: [number, number] = [picture.storyId, picture.turn];
      if (picture.moment === 'moment' && (await pictures.count(key)) === 0) {
        const kept = await pictures.getAllKeys(picturesKeyRange(picture.storyId));
        const moments = kept.filter(([, turn]) => turn >= 1).length;
        if (moments >= MAX_MOMENT_PICTURES) return { kept: false, reason: 'tooMany' };
      }
      await pictures.put(picture);
      return { kept: true, picture };
    },
    [STORE, PICTURES],
  );
}

/** A story's pictures in the story's order: the opening, the moments by turn, the ending. */
export async function picturesOf(db: StoriesDb, storyId: number): Promise<StoryPicture[]> {
  const pictures = await inTransaction(
    db,
    'readonly',
    (tx) => tx.objectStore(PICTURES).getAll(picturesKeyRange(storyId)),
    [PICTURES],
  );
  return inStoryOrder(pictures);
}

/** Whether a story keeps any picture: a count of its keys, its pictures left unread. */
export async function keepsPictures(db: StoriesDb, storyId: number): Promise<boolean> {
  const count = await inTransaction(
    db,
    'readonly',
    (tx) => tx.objectStore(PICTURES).count(picturesKeyRange(storyId)),
    [PICTURES],
  );
  return count > 0;
}

/** The picture of a story's turn (OPENING_TURN, a moment's turn, ENDING_TURN), if it has one. */
export function pictureAt(
  db: StoriesDb,
  storyId: number,
  turn: number,
): Promise<StoryPicture | undefined> {
  return inTransaction(db, 'readonly', (tx) => tx.objectStore(PICTURES).get([storyId, turn]), [
    PICTURES,
  ]);
}

/** Deletes every picture of a story, leaving the story; returns how many there were. */
export function forgetPictures(db: StoriesDb, storyId: number): Promise<number> {
  return inTransaction(
    db,
    'readwrite',
    async (tx) => {
      const pictures = tx.objectStore(PICTURES);
      const range = picturesKeyRange(storyId);
      const count = await pictures.count(range);
      await pictures.delete(range);
      return count;
    },
    [PICTURES],
  );
}

/** Deletes the picture of one turn of a story (a paragraph written again), if it has one. */
export function forgetPictureAt(db: StoriesDb, storyId: number, turn: number): Promise<void> {
  return inTransaction(db, 'readwrite', (tx) => tx.objectStore(PICTURES).delete([storyId, turn]), [
    PICTURES,
  ]);
}

/** The ids of the stories that keep at least one picture, read from the keys alone. */
export async function storiesWithPictures(db: StoriesDb): Promise<number[]> {
  const keys = await inTransaction(db, 'readonly', (tx) => tx.objectStore(PICTURES).getAllKeys(), [
    PICTURES,
  ]);
  return [...new Set(keys.map(([storyId]) => storyId))];
}

/** A story log's paragraphs, in order: the scenes its pictures show (turn 0 the first). */
const paragraphsOf = (log: readonly unknown[]): string[] =>
  log.flatMap((entry) =>
    isRecord(entry) && entry.kind === 'paragraph' && typeof entry.text === 'string'
      ? [entry.text]
      : [],
  );

/**
 * Whether a picture of one line of a story shows a scene of another line too: a turn before
 * their first paragraph that differs, and the ending where the two are the same story.
 */
export function sharesScene(
  one: readonly unknown[],
  other: readonly unknown[],
): (turn: number) => boolean {
  const [a, b] = [paragraphsOf(one), paragraphsOf(other)];
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
  const same = shared === a.length && shared === b.length;
  return (turn) => (turn === ENDING_TURN ? same : turn >= 0 && turn < shared);
}

/**
 * A branch of a story (another tab had saved the story since this tab did: browserPlace.ts
 * keepInBrowser) keeps copies, under its own id, of the pictures of the scenes it shares with the
 * story it split from (sharesScene): they stay when that story is deleted, and go with the branch
 * to the wallet's cloud and into its export. Returns the turns copied.
 */
export async function copySharedPictures(
  db: StoriesDb,
  from: number,
  branch: number,
): Promise<number[]> {
  const [original, split] = await Promise.all([getStory(db, from), getStory(db, branch)]);
  if (!original || !split) return [];
  const shared = sharesScene(original.game.storyLog, split.game.storyLog);
  return inTransaction(
    db,
    'readwrite',
    async (tx) => {
      // A branch deleted meanwhile keeps nothing.
      if ((await tx.objectStore(STORE).count(branch)) === 0) return [];
      const pictures = tx.objectStore(PICTURES);
      const [offered, own] = await Promise.all([
        pictures.getAllKeys(picturesKeyRange(from)),
        pictures.getAllKeys(picturesKeyRange(branch)),
      ]);
      // What the branch drew of its own stays; its moments stay within their bound.
      const has = new Set(own.map(([, turn]) => turn));
      let moments = own.filter(([, turn]) => turn >= 1).length;
      const turns = offered
        .map(([, turn]) => turn)
        .filter((turn) => shared(turn) && !has.has(turn))
        .filter((turn) => turn < 1 || (moments += 1) <= MAX_MOMENT_PICTURES);
      const copied = await Promise.all(turns.map((turn) => pictures.get([from, turn])));
      await Promise.all(
        copied.flatMap((picture) =>
          picture ? [pictures.put({ ...picture, storyId: branch })] : [],
        ),
      );
      return copied.flatMap((picture) => (picture ? [picture.turn] : []));
    },
    [STORE, PICTURES],
  );
}

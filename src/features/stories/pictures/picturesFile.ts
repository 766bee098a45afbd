// A story's pictures in its JSON export (storyExport.ts, format version 2), and read back from
// one: base64 with their metadata, each checked on the way in as a picture kept in the browser
// is (storyPicture.ts), so a bad one is skipped, with its reason, never the story.
import { isRecord } from '../../../engine/guards';
import type { SkippedPicture } from '../storyImportError';
import { base64Bytes, base64ToBytes, bytesToBase64 } from './base64';
import {
  MAGIC_BYTES,
  MAX_ALT_LENGTH,
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_STORY,
  type PictureMediaType,
  type PictureMoment,
  type PictureToKeep,
  type StoryPicture,
  inStoryOrder,
  pictureProblem,
} from './storyPicture';

/** A picture as an export holds it: without its story's id (an import is a new story). */
export interface ExportedPicture {
  moment: PictureMoment;
  turn: number;
  mediaType: PictureMediaType;
  width: number;
  height: number;
  bytes: number;
  alt: string;
  model: string;
  createdAt: string;
  /** The image file, base64. */
  data: string;
}

/**
 * A picture read from an export, to be kept under the imported story's new id; `index` is its
 * place in the file's `pictures`, which a skipped picture is named by.
 */
export type ImportedPicture = Omit<PictureToKeep, 'storyId'> & { index: number };

/** A story's pictures as its export holds them, in the story's order. */
export async function exportedPictures(
  pictures: readonly StoryPicture[],
): Promise<ExportedPicture[]> {
  return Promise.all(
    inStoryOrder(pictures).map(async (picture) => ({
      moment: picture.moment,
      turn: picture.turn,
      mediaType: picture.mediaType,
      width: picture.width,
      height: picture.height,
      bytes: picture.bytes,
      alt: picture.alt,
      model: picture.model,
      createdAt: picture.createdAt,
      data: bytesToBase64(new Uint8Array(await picture.blob.arrayBuffer())),
    })),
  );
}

/**
 * The pictures of an export's `pictures` field that can be kept, and the ones skipped with why
 * (by their place in the file): a picture that is not a bounded WebP or JPEG its bytes confirm,
 * a second one of the same turn, and any beyond MAX_PICTURES_PER_STORY.
 */
export function readExportedPictures(value: unknown): {
  pictures: ImportedPicture[];
  skipped: SkippedPicture[];
} {
  const pictures: ImportedPicture[] = [];
  const skipped: SkippedPicture[] = [];
  if (!Array.isArray(value)) return { pictures, skipped };
  const turns = new Set<number>();
  value.forEach((entry: unknown, index) => {
    const turn = isRecord(entry) && typeof entry.turn === 'number' ? entry.turn : null;
    const read = readPicture(entry, index);
    let reason: SkippedPicture['reason'] | null = 'reason' in read ? read.reason : null;
    if (!reason && turn !== null && turns.has(turn)) reason = 'duplicateTurn';
    if (!reason && pictures.length >= MAX_PICTURES_PER_STORY) reason = 'tooMany';
    if (reason || !('picture' in read)) {
      skipped.push({ index, turn, reason: reason ?? 'notAPicture' });
      return;
    }
    turns.add(read.picture.turn);
    pictures.push(read.picture);
  });
  return { pictures, skipped };
}

function readPicture(
  entry: unknown,
  index: number,
): { picture: ImportedPicture } | { reason: SkippedPicture['reason'] } {
  if (!isRecord(entry) || typeof entry.data !== 'string') return { reason: 'notAPicture' };
  // Bounded before it is decoded: a huge string is never turned into bytes.
  if (base64Bytes(entry.data.length) > MAX_PICTURE_BYTES + 2) return { reason: 'tooLarge' };
  const bytes = base64ToBytes(entry.data);
  if (!bytes) return { reason: 'notBase64' };
  const checked = pictureProblem(
    entry,
    entry.mediaType,
    bytes.length,
    bytes.subarray(0, MAGIC_BYTES),
  );
  if ('problem' in checked) return { reason: checked.problem };
  return {
    picture: {
      index,
      moment: entry.moment as PictureMoment,
      turn: entry.turn as number,
      blob: new Blob([bytes], { type: checked.mediaType }),
      width: entry.width as number,
      height: entry.height as number,
      alt: (entry.alt as string).slice(0, MAX_ALT_LENGTH),
      model: entry.model as string,
      createdAt: entry.createdAt as string,
    },
  };
}

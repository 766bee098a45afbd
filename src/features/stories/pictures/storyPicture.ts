// A picture of a story as the browser keeps it (issue 41, part 4): what it shows (the opening,
// a chosen moment, the ending), its compressed image, and the bounds every way in holds it to
// (a save from the picture flow, an import). Plain data and pure checks: no IndexedDB, no canvas.

import type { PictureMoment } from '../../llm';

/** Which part of the story a picture shows: one type, the picture prompt's (llm/pictures). */
export type { PictureMoment };

/**
 * A picture's turn, its key with the story's id: the opening is turn 0, a moment is the turn
 * whose paragraph it shows (1 on, at most one per turn), and the ending is ENDING_TURN, its own
 * key, so the last turn's moment and the ending never take each other's place.
 */
export const OPENING_TURN = 0;
export const ENDING_TURN = -1;

/** The formats a picture is kept in: what the browser's compression makes (pictureCompression.ts). */
export const PICTURE_MEDIA_TYPES = ['image/webp', 'image/jpeg'] as const;
export type PictureMediaType = (typeof PICTURE_MEDIA_TYPES)[number];

/** What the compression aims at: about 150 KB a picture (issue 41). */
export const PICTURE_TARGET_BYTES = 150 * 1024;
/**
 * What is kept at most, from the compression or an import: the target with room for a file
 * another build compressed a little differently, never a provider's uncompressed original.
 */
export const MAX_PICTURE_BYTES = 256 * 1024;
/** The longest side a kept picture may have: twice what the page shows (pictureCompression.ts). */
export const MAX_PICTURE_SIDE = 1536;
/**
 * Pictures a story keeps at most: the opening, the ending and 38 moments. A story that has them
 * all is refused a new moment ('tooMany'); the opening and the ending always have their place,
 * and a picture drawn again for a turn that has one replaces it.
 */
export const MAX_PICTURES_PER_STORY = 40;
export const MAX_MOMENT_PICTURES = MAX_PICTURES_PER_STORY - 2;
/** The alt text is the scene's words, cut to what a screen reader is reasonably read. */
export const MAX_ALT_LENGTH = 1000;

export interface StoryPicture {
  storyId: number;
  turn: number;
  moment: PictureMoment;
  blob: Blob;
  mediaType: PictureMediaType;
  width: number;
  height: number;
  /** The blob's size: a list of pictures says what they weigh without reading them. */
  bytes: number;
  /** The scene's words, for the picture's alt text. */
  alt: string;
  /** The image model that drew it. */
  model: string;
  /** When it was kept, an ISO date (from the saga context's clock). */
  createdAt: string;
}

/** A picture as it is offered to be kept: its type and size are read from the blob itself. */
export type PictureToKeep = Omit<StoryPicture, 'mediaType' | 'bytes'>;

/**
 * Why a picture is not kept, whichever way it came in (the picture flow or an import): typed, so
 * a view can say it in the player's language.
 * - notAPicture: not the shape of a picture at all (a field missing or of the wrong kind).
 * - wrongTurn: a turn that is not its moment's (the opening not turn 0, a moment below 1).
 * - badSize: a width or height that is not a whole number of pixels up to MAX_PICTURE_SIDE.
 * - unsupportedType: its media type is neither WebP nor JPEG.
 * - notItsType: its bytes are not the image its media type says (the magic bytes), or none.
 * - notBase64: an exported picture whose data is not base64.
 * - tooLarge: more than MAX_PICTURE_BYTES.
 * - tooMany: the story already keeps MAX_MOMENT_PICTURES moments.
 * - noStory: there is no such story (deleted while the picture was drawn).
 */
export type PictureRefusal =
  | 'notAPicture'
  | 'wrongTurn'
  | 'badSize'
  | 'unsupportedType'
  | 'notItsType'
  | 'notBase64'
  | 'tooLarge'
  | 'tooMany'
  | 'noStory';

/** The turn a moment may have: the opening 0, the ending ENDING_TURN, a moment 1 on. */
export function isTurnOf(moment: PictureMoment, turn: number): boolean {
  if (!Number.isSafeInteger(turn)) return false;
  if (moment === 'opening') return turn === OPENING_TURN;
  if (moment === 'ending') return turn === ENDING_TURN;
  return turn >= 1;
}

export function isPictureMoment(value: unknown): value is PictureMoment {
  return value === 'opening' || value === 'moment' || value === 'ending';
}

export function isPictureMediaType(value: unknown): value is PictureMediaType {
  return (PICTURE_MEDIA_TYPES as readonly unknown[]).includes(value);
}

export function isPictureSide(value: unknown): value is number {
  return (
    Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_PICTURE_SIDE
  );
}

/** How many of a picture's first bytes say what image it is. */
export const MAGIC_BYTES = 12;

/**
 * The image a picture's first bytes say it is: WebP ("RIFF", a size, "WEBP") or JPEG (FF D8 FF),
 * else null. A file's name or stated type is never taken for its content.
 */
export function mediaTypeOfBytes(bytes: Uint8Array): PictureMediaType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'image/jpeg';
  }
  return null;
}

/** Opening first, then the moments by turn, the ending last: the story's order. */
export function inStoryOrder<T extends { turn: number }>(pictures: readonly T[]): T[] {
  const place = (turn: number) => (turn === ENDING_TURN ? Number.MAX_SAFE_INTEGER : turn);
  return [...pictures].sort((a, b) => place(a.turn) - place(b.turn));
}

/**
 * What is wrong with a picture offered to be kept, from its fields, its stated media type, its
 * size and its first bytes, or its media type when nothing is: the one check the picture flow's
 * pictures and an import's are both held to.
 */
export function pictureProblem(
  fields: Record<string, unknown>,
  stated: unknown,
  size: number,
  head: Uint8Array,
): { problem: PictureRefusal } | { mediaType: PictureMediaType } {
  const { moment, turn, width, height, alt, model, createdAt } = fields;
  if (
    !isPictureMoment(moment) ||
    typeof turn !== 'number' ||
    typeof alt !== 'string' ||
    typeof model !== 'string' ||
    typeof createdAt !== 'string' ||
    Number.isNaN(Date.parse(createdAt))
  ) {
    return { problem: 'notAPicture' };
  }
  if (!isTurnOf(moment, turn)) return { problem: 'wrongTurn' };
  if (!isPictureSide(width) || !isPictureSide(height)) return { problem: 'badSize' };
  if (!isPictureMediaType(stated)) return { problem: 'unsupportedType' };
  if (size > MAX_PICTURE_BYTES) return { problem: 'tooLarge' };
  // An empty file is caught here too: no bytes say it is an image.
  if (mediaTypeOfBytes(head) !== stated) return { problem: 'notItsType' };
  return { mediaType: stated };
}

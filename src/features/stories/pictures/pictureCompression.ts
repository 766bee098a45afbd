// A provider's picture made small enough to keep (issue 41, part 4): resized to what the page
// shows and encoded as WebP (JPEG where the browser cannot encode WebP) of about
// PICTURE_TARGET_BYTES at most. The browser's decoder and encoder come in as a PictureCodec
// (browserCodec.ts), so the steps below are plain logic a test runs with a fake one.
import {
  PICTURE_TARGET_BYTES,
  type PictureMediaType,
  mediaTypeOfBytes,
  MAGIC_BYTES,
} from './storyPicture';

/** The longest side the page shows a picture at, in CSS pixels: the reading column's width. */
export const PICTURE_LONG_SIDE = 768;
/**
 * The qualities tried, best first, until the picture fits PICTURE_TARGET_BYTES: a 768×512 scene
 * usually fits at the first (WebP at 0.8 is about 60–120 KB); a busy one steps down.
 */
export const PICTURE_QUALITIES = [0.8, 0.7, 0.6, 0.5, 0.4] as const;
/**
 * Where even the lowest quality does not fit, the picture is made smaller, by these factors of
 * its size, and the qualities tried again; below the last it is refused ('tooLarge').
 */
export const PICTURE_SHRINK_STEPS = [1, 0.75, 0.5] as const;

/** A decoded image: its size in pixels. What else it is belongs to its codec. */
export interface DecodedImage {
  readonly width: number;
  readonly height: number;
}

/** The browser's image decoding and encoding, as much as the compression needs of it. */
export interface PictureCodec<Image extends DecodedImage = DecodedImage> {
  /** Decodes an image file; rejects when it is none. */
  decode(blob: Blob): Promise<Image>;
  /**
   * The image drawn at `width`×`height` and encoded as `mediaType` at `quality` (0–1). A
   * browser that cannot encode that type answers another (a PNG): the blob's type says which.
   */
  encode(
    image: Image,
    width: number,
    height: number,
    mediaType: PictureMediaType,
    quality: number,
  ): Promise<Blob>;
  /** Lets the decoded image go (an ImageBitmap's memory). */
  release(image: Image): void;
}

export interface CompressedPicture {
  blob: Blob;
  mediaType: PictureMediaType;
  width: number;
  height: number;
  bytes: number;
  /** The quality it was encoded at, and how many encodings it took: for the bench and tests. */
  quality: number;
  encodings: number;
}

/**
 * Why a picture could not be compressed:
 * - notAnImage: the browser cannot decode it.
 * - cannotEncode: the browser encodes neither WebP nor JPEG (its encoder answered another type).
 * - tooLarge: even at the lowest quality and half its size it weighs more than the target.
 */
export type PictureCompressionProblem = 'notAnImage' | 'cannotEncode' | 'tooLarge';

export class PictureCompressionError extends Error {
  override readonly name = 'PictureCompressionError';
  constructor(
    readonly reason: PictureCompressionProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface CompressionOptions {
  longSide?: number;
  targetBytes?: number;
}

/** The size a picture is shown at: its long side at most `longSide`, never made larger. */
export function fittedSize(
  width: number,
  height: number,
  longSide = PICTURE_LONG_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, longSide / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * Compresses a provider's picture: WebP first, at each of PICTURE_QUALITIES in turn, then smaller
 * by PICTURE_SHRINK_STEPS, until it fits `targetBytes`; JPEG from the first encoding on where the
 * browser answers WebP with another type. Throws a PictureCompressionError.
 */
export async function compressPicture<Image extends DecodedImage>(
  original: Blob,
  codec: PictureCodec<Image>,
  { longSide = PICTURE_LONG_SIDE, targetBytes = PICTURE_TARGET_BYTES }: CompressionOptions = {},
): Promise<CompressedPicture> {
  let image: Image;
  try {
    image = await codec.decode(original);
  } catch (error) {
    throw new PictureCompressionError(
      'notAnImage',
      `The picture (${original.type || 'no type'}, ${original.size} bytes) cannot be decoded`,
      { cause: error },
    );
  }
  try {
    const shown = fittedSize(image.width, image.height, longSide);
    let mediaType: PictureMediaType = 'image/webp';
    let encodings = 0;
    let smallest = Infinity;
    for (const shrink of PICTURE_SHRINK_STEPS) {
      const { width, height } = fittedSize(shown.width, shown.height, longSide * shrink);
      for (const quality of PICTURE_QUALITIES) {
        let blob = await codec.encode(image, width, height, mediaType, quality);
        encodings += 1;
        if (!(await isEncodedAs(blob, mediaType)) && mediaType === 'image/webp') {
          mediaType = 'image/jpeg';
          blob = await codec.encode(image, width, height, mediaType, quality);
          encodings += 1;
        }
        if (!(await isEncodedAs(blob, mediaType))) {
          throw new PictureCompressionError(
            'cannotEncode',
            `This browser encodes neither WebP nor JPEG (it answered ${blob.type || 'no type'})`,
          );
        }
        if (blob.size <= targetBytes) {
          return { blob, mediaType, width, height, bytes: blob.size, quality, encodings };
        }
        smallest = Math.min(smallest, blob.size);
      }
    }
    throw new PictureCompressionError(
      'tooLarge',
      `The picture is ${smallest} bytes at its smallest, more than ${targetBytes}`,
    );
  } finally {
    codec.release(image);
  }
}

/** An encoding is the type asked for when both its stated type and its first bytes say so. */
async function isEncodedAs(blob: Blob, mediaType: PictureMediaType): Promise<boolean> {
  if (blob.type !== mediaType) return false;
  const head = new Uint8Array(await blob.slice(0, MAGIC_BYTES).arrayBuffer());
  return mediaTypeOfBytes(head) === mediaType;
}

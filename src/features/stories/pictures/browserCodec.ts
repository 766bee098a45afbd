// The browser's own decoder and encoder for pictureCompression.ts: createImageBitmap to decode
// (off the main thread in the browsers that have it), an OffscreenCanvas to draw and encode
// (convertToBlob), in a worker or on the page; an ordinary canvas where there is no
// OffscreenCanvas (Safari before 16.4), on the page only.
import type { PictureCodec } from './pictureCompression';
import type { PictureMediaType } from './storyPicture';

/** Whether this context can compress with an OffscreenCanvas: a worker needs it to. */
export function hasOffscreenCanvas(): boolean {
  return typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap === 'function';
}

interface Surface {
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;
  toBlob(mediaType: PictureMediaType, quality: number): Promise<Blob>;
}

function surface(width: number, height: number): Surface {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('OffscreenCanvas has no 2d context');
    return { context, toBlob: (type, quality) => canvas.convertToBlob({ type, quality }) };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('The canvas has no 2d context');
  return {
    context,
    toBlob: (type, quality) =>
      new Promise((resolve, reject) =>
        canvas.toBlob(
          (blob) => (blob ? resolve(blob) : reject(new Error(`The canvas made no ${type}`))),
          type,
          quality,
        ),
      ),
  };
}

export function browserCodec(): PictureCodec<ImageBitmap> {
  return {
    decode: (blob) => createImageBitmap(blob),
    async encode(image, width, height, mediaType, quality) {
      const { context, toBlob } = surface(width, height);
      // JPEG has no transparency: a transparent pixel would turn black, so it is drawn on the
      // page's ink colour instead.
      if (mediaType === 'image/jpeg') {
        context.fillStyle = '#1b1612';
        context.fillRect(0, 0, width, height);
      }
      context.imageSmoothingEnabled = true;
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, width, height);
      return toBlob(mediaType, quality);
    },
    release: (image) => image.close(),
  };
}

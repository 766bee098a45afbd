// The picture compression's steps (issue 41, part 4) with a fake codec: what size a picture is
// drawn at, which qualities are tried and when it is made smaller, WebP or JPEG, and what fails.
// The browser's own codec is checked in Chromium (test/e2e/pictureCompression.e2e.ts).
import {
  PICTURE_LONG_SIDE,
  PICTURE_QUALITIES,
  PictureCompressionError,
  compressPicture,
  fittedSize,
  type PictureCodec,
} from '../../../src/features/stories/pictures/pictureCompression';
import { PICTURE_TARGET_BYTES } from '../../../src/features/stories';
import { jpegBytes, pngBytes, webpBytes } from '../../fixtures/storyPictures';

interface FakeImage {
  width: number;
  height: number;
  released: boolean;
}

interface Encoding {
  width: number;
  height: number;
  mediaType: string;
  quality: number;
}

/**
 * A codec whose encodings weigh `bytesPerPixel(quality)` per pixel drawn, like a real encoder
 * (smaller and lower quality, fewer bytes). `webp: false` is a browser that answers WebP with a
 * PNG, as Safari's canvas does.
 */
function fakeCodec({
  width = 1536,
  height = 1024,
  bytesPerPixel = (quality: number) => quality * 0.5,
  webp = true,
  decodes = true,
}: {
  width?: number;
  height?: number;
  bytesPerPixel?: (quality: number) => number;
  webp?: boolean;
  decodes?: boolean;
} = {}) {
  const encodings: Encoding[] = [];
  const images: FakeImage[] = [];
  const codec: PictureCodec<FakeImage> = {
    decode: () => {
      if (!decodes) return Promise.reject(new Error('InvalidStateError: cannot decode'));
      const image = { width, height, released: false };
      images.push(image);
      return Promise.resolve(image);
    },
    encode: (_image, w, h, mediaType, quality) => {
      encodings.push({ width: w, height: h, mediaType, quality });
      const size = Math.max(16, Math.round(w * h * bytesPerPixel(quality)));
      if (mediaType === 'image/webp' && !webp) {
        return Promise.resolve(new Blob([pngBytes(size)], { type: 'image/png' }));
      }
      const bytes = mediaType === 'image/webp' ? webpBytes(size) : jpegBytes(size);
      return Promise.resolve(new Blob([bytes], { type: mediaType }));
    },
    release: (image) => {
      image.released = true;
    },
  };
  return { codec, encodings, images };
}

const original = new Blob([pngBytes(3_000_000)], { type: 'image/png' });

describe('the size a picture is drawn at', () => {
  test.each([
    [1536, 1024, 768, 512],
    [1024, 1536, 512, 768],
    [1024, 1024, 768, 768],
    [1792, 1024, 768, 439],
    [512, 300, 512, 300],
  ])('%i×%i is shown at %i×%i (never made larger)', (width, height, shownWidth, shownHeight) => {
    expect(fittedSize(width, height)).toEqual({ width: shownWidth, height: shownHeight });
  });
});

describe('compressing a picture', () => {
  test('a 1536×1024 picture is drawn at 768×512 as WebP at the first quality that fits', async () => {
    // 768×512 at 0.8 weighs 157 KB, at 0.7 138 KB: the second fits 150 KB.
    const { codec, encodings, images } = fakeCodec();
    const picture = await compressPicture(original, codec);

    expect(encodings).toEqual([
      { width: 768, height: 512, mediaType: 'image/webp', quality: 0.8 },
      { width: 768, height: 512, mediaType: 'image/webp', quality: 0.7 },
    ]);
    expect(picture).toMatchObject({
      mediaType: 'image/webp',
      width: 768,
      height: 512,
      quality: 0.7,
      encodings: 2,
    });
    expect(picture.bytes).toBe(picture.blob.size);
    expect(picture.bytes).toBeLessThanOrEqual(PICTURE_TARGET_BYTES);
    expect(images[0]?.released).toBe(true);
  });

  test('a simple scene fits at the best quality, in one encoding', async () => {
    const { codec, encodings } = fakeCodec({ bytesPerPixel: (q) => q * 0.2 });
    const picture = await compressPicture(original, codec);
    expect(encodings).toHaveLength(1);
    expect(picture.quality).toBe(PICTURE_QUALITIES[0]);
  });

  test('a busy scene steps through every quality, then is drawn smaller', async () => {
    // 0.75 of the size at 0.7: 576×384 × 0.7 = 155 KB, too much; at 0.6, 133 KB fits.
    const { codec, encodings } = fakeCodec({ bytesPerPixel: (q) => q * 1 });
    const picture = await compressPicture(original, codec);

    expect(encodings.map(({ width, quality }) => [width, quality])).toEqual([
      [768, 0.8],
      [768, 0.7],
      [768, 0.6],
      [768, 0.5],
      [768, 0.4],
      [576, 0.8],
      [576, 0.7],
      [576, 0.6],
    ]);
    expect(picture).toMatchObject({ width: 576, height: 384, quality: 0.6, encodings: 8 });
  });

  test('where the browser answers WebP with another type, it is JPEG from then on', async () => {
    const { codec, encodings } = fakeCodec({ webp: false });
    const picture = await compressPicture(original, codec);

    expect(encodings.map(({ mediaType, quality }) => [mediaType, quality])).toEqual([
      ['image/webp', 0.8],
      ['image/jpeg', 0.8],
      ['image/jpeg', 0.7],
    ]);
    expect(picture).toMatchObject({ mediaType: 'image/jpeg', quality: 0.7, encodings: 3 });
    expect(picture.blob.type).toBe('image/jpeg');
  });

  test('a picture too large even at half its size and the lowest quality is refused', async () => {
    const { codec, encodings, images } = fakeCodec({ bytesPerPixel: () => 5 });
    const compressing = compressPicture(original, codec);

    await expect(compressing).rejects.toBeInstanceOf(PictureCompressionError);
    await expect(compressing).rejects.toMatchObject({ reason: 'tooLarge' });
    expect(encodings).toHaveLength(15);
    expect(encodings.at(-1)).toMatchObject({ width: 384, height: 256, quality: 0.4 });
    expect(images[0]?.released).toBe(true);
  });

  test('a file the browser cannot decode is named as no image', async () => {
    const { codec, encodings } = fakeCodec({ decodes: false });
    await expect(compressPicture(new Blob(['<html>']), codec)).rejects.toMatchObject({
      name: 'PictureCompressionError',
      reason: 'notAnImage',
    });
    expect(encodings).toEqual([]);
  });

  test('an encoder whose bytes are not what its type says is not believed', async () => {
    const { codec } = fakeCodec();
    const lying: PictureCodec<FakeImage> = {
      ...codec,
      encode: () => Promise.resolve(new Blob([pngBytes(1000)], { type: 'image/jpeg' })),
    };
    await expect(compressPicture(original, lying)).rejects.toMatchObject({
      reason: 'cannotEncode',
    });
  });

  test('the long side and the target can be chosen', async () => {
    const { codec, encodings } = fakeCodec({ bytesPerPixel: () => 0.1 });
    const picture = await compressPicture(original, codec, {
      longSide: 384,
      targetBytes: 50_000,
    });
    expect(encodings[0]).toMatchObject({ width: 384, height: 256 });
    expect(picture.bytes).toBeLessThanOrEqual(50_000);
    expect(PICTURE_LONG_SIDE).toBe(768);
  });
});

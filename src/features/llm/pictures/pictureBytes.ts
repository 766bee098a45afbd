/**
 * What a provider answered with, read as a picture only when it is one (issue 41, part 5):
 * base64 or a data: URL decoded, or bytes read from a response, never more than a bound, and
 * the bytes checked to be a PNG, JPEG or WebP image by their first bytes (and by the type the
 * answer declares, when it declares one). Anything else is a PictureError the game can name.
 */
import { PictureError } from './pictureError';

/** The most a picture may be before the game compresses it: larger ones are refused. */
export const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

/** What a JSON answer (base64 of a picture at most MAX_PICTURE_BYTES) may be, at most. */
export const MAX_ANSWER_BYTES = Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 64 * 1024;

export type PictureMediaType = 'image/png' | 'image/jpeg' | 'image/webp';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  prefix.every((byte, index) => bytes[at + index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type the bytes begin as (their magic numbers), or null. */
function sniffImage(bytes: Uint8Array): PictureMediaType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** A declared media type as one of the three, 'image/jpg' read as JPEG; null otherwise. */
function declaredImage(contentType: string): PictureMediaType | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/jpg') return 'image/jpeg';
  return type === 'image/png' || type === 'image/jpeg' || type === 'image/webp' ? type : null;
}

/** A picture (or its answer) of `bytes`, refused for being larger than the game takes. */
export const pictureTooLarge = (bytes: number) =>
  new PictureError(
    'tooLarge',
    `The picture is ${bytes} bytes, more than the ${MAX_PICTURE_BYTES} the game takes`,
  );

/**
 * The bytes as a picture: their first bytes say PNG, JPEG or WebP, and agree with the type the
 * answer declared (null: it declared none, as base64 in a JSON body does).
 */
export function pictureOf(
  bytes: Uint8Array<ArrayBuffer>,
  declared: string | null,
): { image: Blob; mediaType: PictureMediaType } {
  if (bytes.byteLength > MAX_PICTURE_BYTES) throw pictureTooLarge(bytes.byteLength);
  const sniffed = sniffImage(bytes);
  const stated = declared === null ? sniffed : declaredImage(declared);
  if (sniffed === null || stated !== sniffed) {
    const said = declared === null ? '' : ` declared as ${declared.slice(0, 60)}`;
    throw new PictureError('notAnImage', `The answer${said} is not a PNG, JPEG or WebP picture`);
  }
  return { image: new Blob([bytes], { type: sniffed }), mediaType: sniffed };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Uint8Array.fromBase64 (TC39's ArrayBuffer base64 proposal; Chromium 140, Firefox 133, Safari
 * 18.2): a picture's megabytes decoded natively, where the loop below takes the page's main
 * thread tens of milliseconds (npm run bench picturesTurn). It skips whitespace and throws a
 * SyntaxError on anything that is not base64, as the checks below do.
 */
const nativeBase64 = (
  Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }
).fromBase64;

/** Base64 (as b64_json sends it) as bytes, bounded before it is decoded. */
export function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const bound = Math.floor((text.length * 3) / 4);
  if (nativeBase64 && bound <= MAX_PICTURE_BYTES) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = nativeBase64(text);
    } catch {
      throw new PictureError('notAnImage', 'The answer holds no base64 picture');
    }
    if (bytes.byteLength === 0)
      throw new PictureError('notAnImage', 'The answer holds no base64 picture');
    return bytes;
  }
  const clean = text.replace(/\s+/g, '');
  const size = Math.floor((clean.length * 3) / 4);
  if (size > MAX_PICTURE_BYTES) throw pictureTooLarge(size);
  if (clean === '' || clean.length % 4 === 1 || !BASE64.test(clean)) {
    throw new PictureError('notAnImage', 'The answer holds no base64 picture');
  }
  const binary = atob(clean);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A data: URL's picture: base64 only, its declared type checked against its bytes. */
export function dataUrlPicture(url: string): { image: Blob; mediaType: PictureMediaType } {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match || !/;base64$/i.test(match[2]!)) {
    throw new PictureError('notAnImage', 'The answer is a data: URL without a base64 picture');
  }
  return pictureOf(base64Bytes(match[3]!), match[1]!);
}

/**
 * The length a response declares, if it declares one; one over `limit` is refused unread (its
 * body cancelled).
 */
export async function declaredLength(response: Response, limit: number): Promise<number | null> {
  const declared = Number(response.headers.get('Content-Length') ?? NaN);
  if (!Number.isFinite(declared)) return null;
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw pictureTooLarge(declared);
  }
  return declared;
}

/** A body's chunks as they come, at most `limit` bytes of them: past it, cancelled there. */
export async function boundedChunks(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      throw pictureTooLarge(length);
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
}

/**
 * A response's body as bytes, at most `limit` of them: a declared Content-Length over it is
 * refused unread, and a body that runs past it is cancelled there.
 */
export async function readBounded(
  response: Response,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  await declaredLength(response, limit);
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks = await boundedChunks(response.body, limit);
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

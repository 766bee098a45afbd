import { pictureRefusalOf } from '../../../../src/features/llm/pictures/pictureError';
import {
  MAX_PICTURE_BYTES,
  base64Bytes,
  dataUrlPicture,
  pictureOf,
} from '../../../../src/features/llm/pictures/pictureBytes';
import { noQuota } from '../../../fixtures/fakeProviders/openai';
import { unknownParameter } from '../../../fixtures/fakeImages/openai';
import { solidPng } from '../../../fixtures/fakeImages/png';

const KEY = 'sk-echoed-0123456789';
const NOW = Date.parse('2026-11-28T12:00:00Z');
const refusal = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  pictureRefusalOf(status, JSON.stringify(body), new Headers(headers), KEY, NOW);

describe('a refused picture request', () => {
  it("reads OpenAI's refusal of response_format as other, not as a retired model", () => {
    const { status, body } = unknownParameter('response_format');

    expect(refusal(status, body)).toMatchObject({
      kind: 'other',
      status: 400,
      providerMessage: "Unknown parameter: 'response_format'.",
    });
  });

  it('reads an account without credit as noCredit (OpenAI 429, a 402)', () => {
    const { status, body } = noQuota();

    expect(refusal(status, body).kind).toBe('noCredit');
    expect(refusal(402, { error: { code: 402, message: 'Insufficient credits.' } }).kind).toBe(
      'noCredit',
    );
  });

  it('takes the wait from a readable Retry-After when the words name none', () => {
    const error = refusal(429, { error: { message: 'Too many images' } }, { 'Retry-After': '7' });

    expect([error.kind, error.retryAfterMs]).toEqual(['rateLimited', 7_000]);
  });

  it('says when a 429 names no wait at all', () => {
    expect(refusal(429, { error: { message: 'Slow down' } }).retryAfterMs).toBeNull();
  });

  it("reads OpenRouter's moderation 403 as refused, another 403 as a refused key", () => {
    const flagged = refusal(403, {
      error: {
        code: 403,
        message: 'openai/gpt-image-1 requires moderation and your input was flagged',
      },
    });
    const forbidden = refusal(403, { error: { message: 'Forbidden' } });

    expect([flagged.kind, forbidden.kind]).toEqual(['refused', 'keyRefused']);
  });

  it("keeps DALL·E's content_policy_violation as refused", () => {
    const error = refusal(400, {
      error: {
        message: 'Your request was rejected as a result of our safety system.',
        code: 'content_policy_violation',
      },
    });

    expect(error.kind).toBe('refused');
  });

  it('takes an echoed key out of the words', () => {
    const error = refusal(500, { error: { message: `Upstream failed for key ${KEY}` } });

    expect(error.kind).toBe('other');
    expect(error.providerMessage).toBe('Upstream failed for key [API key]');
    expect(error.message).not.toContain(KEY);
  });

  it('quotes a plain-text refusal', () => {
    const error = pictureRefusalOf(502, 'Bad gateway', new Headers(), KEY, NOW);

    expect([error.kind, error.providerMessage]).toEqual(['other', 'Bad gateway']);
  });
});

describe('picture bytes', () => {
  const png = new Uint8Array(solidPng(2, 2));
  const webp = new Uint8Array([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8L')]);

  it('tells PNG, JPEG and WebP by their first bytes, and nothing else', () => {
    const typeOf = (bytes: Uint8Array<ArrayBuffer>) => pictureOf(bytes, null).mediaType;
    const notAnImage = expect.objectContaining({ kind: 'notAnImage' });

    expect(typeOf(png)).toBe('image/png');
    expect(typeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(typeOf(webp)).toBe('image/webp');
    expect(() => typeOf(new Uint8Array(Buffer.from('GIF89a')))).toThrow(notAnImage);
    expect(() => typeOf(new Uint8Array(Buffer.from('RIFF0000WAVE')))).toThrow(notAnImage);
  });

  it('decodes a data URL whose declared type its bytes bear out', async () => {
    const url = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

    const picture = dataUrlPicture(url);

    expect(picture.mediaType).toBe('image/png');
    expect(new Uint8Array(await picture.image.arrayBuffer())).toEqual(png);
  });

  it('refuses a data URL that declares another type, is not base64, or is not an image', () => {
    const b64 = Buffer.from(png).toString('base64');

    for (const url of [
      `data:image/jpeg;base64,${b64}`,
      `data:text/html;base64,${b64}`,
      'data:image/png,plain',
      'data:image/png;base64,@@@@',
    ]) {
      expect(() => dataUrlPicture(url)).toThrow(expect.objectContaining({ kind: 'notAnImage' }));
    }
  });

  it('refuses base64 of more than the bound before decoding it', () => {
    const tooMuch = 'A'.repeat(Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 8);

    expect(() => base64Bytes(tooMuch)).toThrow(expect.objectContaining({ kind: 'tooLarge' }));
  });

  it('refuses bytes over the bound even when they begin as a picture', () => {
    const big = new Uint8Array(MAX_PICTURE_BYTES + 1);
    big.set(png.subarray(0, 8));

    expect(() => pictureOf(big, 'image/png')).toThrow(
      expect.objectContaining({ kind: 'tooLarge' }),
    );
  });

  it("reads 'image/jpg' as JPEG", () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0, 0]);

    expect(pictureOf(jpeg, 'image/jpg; charset=binary').mediaType).toBe('image/jpeg');
  });
});

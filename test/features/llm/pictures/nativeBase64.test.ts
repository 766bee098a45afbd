/**
 * Where the browser decodes base64 itself (Uint8Array.fromBase64, Chromium 140 on), a picture's
 * base64 gives the same bytes and the same refusals as where the game's own loop decodes it
 * (pictureRefusals.test.ts). Node 20 has no fromBase64: this file gives Uint8Array one as
 * strict as the proposal's (whitespace skipped, anything else not base64 a SyntaxError) before
 * it loads the module, which looks for it once.
 */
import { solidPng } from '../../../fixtures/fakeImages/png';

const asked: string[] = [];

function strictFromBase64(text: string): Uint8Array {
  const clean = text.replace(/[\t\n\f\r ]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw new SyntaxError('not base64');
  }
  return new Uint8Array(Buffer.from(clean, 'base64'));
}

beforeAll(() => {
  Object.defineProperty(Uint8Array, 'fromBase64', {
    configurable: true,
    value: (text: string) => {
      asked.push(text);
      return strictFromBase64(text);
    },
  });
});
afterAll(() => {
  delete (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64;
});

const pictureBytes = () => import('../../../../src/features/llm/pictures/pictureBytes');

test('a picture is decoded by the browser, whitespace and all', async () => {
  const { base64Bytes } = await pictureBytes();
  const png = solidPng(4, 3);
  const b64 = Buffer.from(png).toString('base64');
  const wrapped = b64.replace(/(.{76})/g, '$1\n');

  expect(base64Bytes(wrapped)).toEqual(new Uint8Array(png));
  expect(asked).toEqual([wrapped]);
});

test('what is not base64, or nothing, is no picture', async () => {
  const { base64Bytes } = await pictureBytes();
  for (const text of ['@@@@', 'A', '']) {
    expect(() => base64Bytes(text)).toThrow(expect.objectContaining({ kind: 'notAnImage' }));
  }
});

test('base64 of more than the bound is refused before it is decoded', async () => {
  const { MAX_PICTURE_BYTES, base64Bytes } = await pictureBytes();
  const tooMuch = 'A'.repeat(Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 8);
  const before = asked.length;

  expect(() => base64Bytes(tooMuch)).toThrow(expect.objectContaining({ kind: 'tooLarge' }));
  expect(asked).toHaveLength(before);
});

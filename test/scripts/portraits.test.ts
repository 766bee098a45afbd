import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PORTRAIT_COUNT } from '../../common/portraits';

// SPEC.md section 3: the player picks one of 32 portraits, characters/1.png to 32.png.
// They are generated once by `npm run portraits` (scripts/generate-portraits.ts) and committed.
const CHARACTERS_DIR = path.resolve(__dirname, '..', '..', 'public', 'characters');
const PORTRAIT_SIZE = 256;
const MAX_PORTRAIT_BYTES = 40 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const portraitFiles = Array.from({ length: PORTRAIT_COUNT }, (_, i) =>
  path.join(CHARACTERS_DIR, `${i + 1}.png`),
);

/** The IHDR chunk comes first after the signature: length, "IHDR", width, height. */
function readPngSize(png: Buffer): { width: number; height: number } {
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('character portraits', () => {
  it.each(portraitFiles)('%s is a 256×256 PNG under 40 KB', (file) => {
    expect(fs.existsSync(file)).toBe(true);
    const png = fs.readFileSync(file);

    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(readPngSize(png)).toEqual({ width: PORTRAIT_SIZE, height: PORTRAIT_SIZE });
    expect(png.length).toBeLessThan(MAX_PORTRAIT_BYTES);
  });

  it('are 32 different pictures', () => {
    const hashes = portraitFiles.map((file) =>
      crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    );
    expect(new Set(hashes).size).toBe(PORTRAIT_COUNT);
  });
});

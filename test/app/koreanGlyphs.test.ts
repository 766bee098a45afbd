/**
 * Every Hangul the interface shows is drawn by the face it is set in (DESIGN.md, Look and feel:
 * Korean in a self-hosted face split by unicode-range). Read from what the build ships: the
 * generated stylesheet (src/app/intl/compiled/koreanFont.css, `npm run intl:compile`), the font
 * files it names (their cmap, not their CSS), and global.css's font stacks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KOREAN_FONT_CSS, KOREAN_FONT_WEIGHTS, parseUnicodeRange } from '../../scripts/korean-font';
import en from '../../src/app/intl/messages/en.json';
import kr from '../../src/app/intl/messages/kr.json';
import { fontCodePoints } from '../support/fontCmap';

const root = path.resolve(__dirname, '../..');
const srcDir = path.join(root, 'src');
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/gu;
const FIRST_SYLLABLE = 0xac00;
const LAST_SYLLABLE = 0xd7a3;

function filesUnder(dir: string, name: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, name);
    return name.test(entry.name) ? [full] : [];
  });
}

/**
 * The Hangul of the interface: both catalogues, and the sources' own (genre and character
 * names, the outcome words). The prompts are written for the model, never shown.
 */
function interfaceHangul(): Map<string, string> {
  const where = new Map<string, string>();
  const note = (text: string, from: string) => {
    for (const [char] of text.matchAll(HANGUL)) if (!where.has(char!)) where.set(char!, from);
  };
  for (const [id, message] of Object.entries(kr)) note(message, `kr.json ${id}`);
  for (const [id, message] of Object.entries(en)) note(message, `en.json ${id}`);
  const prompts = path.join(srcDir, 'features', 'llm', 'prompts');
  const compiled = path.join(srcDir, 'app', 'intl', 'compiled');
  for (const file of filesUnder(srcDir, /\.(tsx?|css)$/)) {
    if (file.startsWith(prompts) || file.startsWith(compiled)) continue;
    note(fs.readFileSync(file, 'utf8'), path.relative(root, file));
  }
  return where;
}

interface Face {
  family: string;
  weight: number;
  ranges: [number, number][];
  file: string;
  /** What the file has glyphs for, read once. */
  codePoints: () => Set<number>;
}

/** The @font-face rules of the shipped Korean stylesheet, with the woff2 file each names. */
function shippedFaces(): Face[] {
  if (!fs.existsSync(KOREAN_FONT_CSS)) {
    throw new Error(`No ${KOREAN_FONT_CSS}: run 'npm run intl:compile' first`);
  }
  const css = fs.readFileSync(KOREAN_FONT_CSS, 'utf8');
  return [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map(([, body]) => {
    const family = /font-family:\s*'([^']+)'/.exec(body!)![1]!;
    const weight = Number(/font-weight:\s*(\d+)/.exec(body!)![1]);
    const url = /url\(([^)]+\.woff2)\)/.exec(body!)![1]!;
    const file = require.resolve(url);
    let read: Set<number> | undefined;
    return {
      family,
      weight,
      ranges: parseUnicodeRange(/unicode-range:\s*([^;]+);/.exec(body!)![1]!),
      file,
      codePoints: () => (read ??= fontCodePoints(fs.readFileSync(file))),
    };
  });
}

const covers = (face: Face, codePoint: number) =>
  face.ranges.some(([from, to]) => from <= codePoint && codePoint <= to);

/**
 * The face weight the browser picks for a requested one (CSS Fonts 4, font matching: from 400
 * to 500 the weights up to 500 first, then below, then above; under 400 below first; over 500
 * above first).
 */
function matchedWeight(wanted: number, available: readonly number[]): number {
  const below = available.filter((w) => w < wanted).sort((a, b) => b - a);
  const above = available.filter((w) => w > wanted).sort((a, b) => a - b);
  if (available.includes(wanted)) return wanted;
  if (wanted >= 400 && wanted <= 500) {
    return above.find((w) => w <= 500) ?? below[0] ?? above[0]!;
  }
  return wanted < 400 ? (below[0] ?? above[0]!) : (above[0] ?? below[0]!);
}

/** Every font-weight the stylesheets set (normal and bold as numbers), and 400 for the rest. */
function weightsInUse(): number[] {
  const weights = new Set<number>([400]);
  for (const file of filesUnder(srcDir, /\.css$/)) {
    if (file.includes(`${path.sep}compiled${path.sep}`)) continue;
    for (const [, value] of fs.readFileSync(file, 'utf8').matchAll(/font-weight:\s*([\w]+)/g)) {
      weights.add(value === 'bold' ? 700 : value === 'normal' ? 400 : Number(value));
    }
  }
  return [...weights].sort();
}

const faces = shippedFaces();
const hangulFaces = faces.filter((face) => face.family === 'Noto Serif KR');

describe('the shipped Hangul face', () => {
  test('ships the weights the interface sets Korean in, each near the one asked for', () => {
    const shipped = [...new Set(hangulFaces.map((face) => face.weight))].sort();
    expect(shipped).toEqual([...KOREAN_FONT_WEIGHTS]);
    for (const wanted of weightsInUse()) {
      // Within 100 of the weight asked for: a 400 face stretched to bold is not "set in" it.
      const matched = matchedWeight(wanted, shipped);
      expect({ wanted, off: Math.abs(matched - wanted) <= 100 }).toEqual({ wanted, off: true });
    }
  });

  test.each(KOREAN_FONT_WEIGHTS)(
    'weight %i: every Hangul the interface uses is claimed and drawn by a slice',
    (weight) => {
      const slices = hangulFaces.filter((face) => face.weight === weight);
      const missing: string[] = [];
      for (const [char, from] of interfaceHangul()) {
        const codePoint = char.codePointAt(0)!;
        const slice = slices.find((face) => covers(face, codePoint));
        if (!slice) missing.push(`${char} (${from}): no slice claims it`);
        else if (!slice.codePoints().has(codePoint)) {
          missing.push(`${char} (${from}): ${path.basename(slice.file)} has no glyph`);
        }
      }
      expect(missing).toEqual([]);
    },
  );

  test.each(KOREAN_FONT_WEIGHTS)(
    "weight %i: every Hangul syllable (the model's story text) is drawn by the slice claiming it",
    (weight) => {
      const slices = hangulFaces.filter((face) => face.weight === weight);
      let missing = 0;
      for (let codePoint = FIRST_SYLLABLE; codePoint <= LAST_SYLLABLE; codePoint++) {
        const slice = slices.find((face) => covers(face, codePoint));
        if (!slice?.codePoints().has(codePoint)) missing++;
      }
      expect(missing).toBe(0);
    },
  );

  test('claims no Latin, so it can stand before the system faces', () => {
    const latin = hangulFaces.filter((face) => face.ranges.some(([from]) => from < 0x1100));
    expect(latin.map((face) => path.basename(face.file))).toEqual([]);
  });
});

describe("global.css's font stacks", () => {
  const css = fs.readFileSync(path.join(srcDir, 'app', 'styles', 'global.css'), 'utf8');
  /** Families the app ships as web fonts (src/index.tsx's and the Korean stylesheet's). */
  const webFamilies = new Set(['Literata', 'Cinzel', 'Noto Serif KR']);
  const stacks = [...css.matchAll(/(--font-[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => ({
    name: name!,
    families: value!.split(',').map((family) => family.trim().replace(/^['"]|['"]$/g, '')),
  }));

  test('there are stacks to check', () => {
    expect(stacks.map((stack) => stack.name)).toEqual(
      expect.arrayContaining(['--font-story', '--font-display', '--font-ui', '--font-mono']),
    );
  });

  test('each names the Hangul face before any system face', () => {
    for (const { name, families } of stacks) {
      const firstSystem = families.findIndex((family) => !webFamilies.has(family));
      const hangul = families.indexOf('Noto Serif KR');
      expect({ name, hangulFirst: hangul >= 0 && hangul < firstSystem }).toEqual({
        name,
        hangulFirst: true,
      });
    }
  });
});

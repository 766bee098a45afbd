/**
 * Generates the 32 character portraits the player chooses from (SPEC.md section 3:
 * public/characters/1.png … 32.png). Faces come from DiceBear's "Lorelei" style (CC0 1.0,
 * Lisa Wischofsky; see public/characters/CREDITS.md); the backdrop and the clothes are drawn
 * here in the game's palette. Run with `npm run portraits`: the output is byte-identical on
 * every run, so the PNGs are committed and nothing is generated at build or test time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAvatar } from '@dicebear/core';
import { lorelei } from '@dicebear/collection';
import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import { PORTRAIT_COUNT } from '../common/portraits';

const PORTRAIT_SIZE = 256;
const OUTPUT_DIR = path.resolve(__dirname, '..', 'public', 'characters');

const INK = '#15110d';
const PARCHMENT = 'efe3c8';
const CANDLE_GOLD = '#d9a441';
const STRAP_LEATHER = '#3a2818';

const SKIN = {
  porcelain: 'f6d7bd',
  fair: 'edb990',
  olive: 'd49a6a',
  bronze: 'b57848',
  brown: '8d5524',
  deep: '6b3e1f',
} as const;

const HAIR = {
  raven: '0e0e0e',
  darkBrown: '2c1b10',
  chestnut: '5a3214',
  auburn: '8a4a1c',
  copper: 'a33a1a',
  honey: 'c9a15b',
  flaxen: 'e3d3a3',
  grey: 'a8a29a',
  white: 'e8e4dc',
  elfSilver: '9fb4c7',
  witchPlum: '5b2a4a',
} as const;

/** Centre of the candle-lit radial backdrop; every backdrop fades to ink at the edges. */
const BACKDROP = {
  amber: '#6b4a26',
  wine: '#5a3030',
  moss: '#3a4038',
  dusk: '#4a3a52',
  slate: '#34404a',
} as const;

const CLOTH = {
  moss: '#3c4a2e',
  wine: '#5b2a22',
  midnight: '#2e3a4a',
  leather: '#5a4128',
  plum: '#47304a',
  ash: '#4a4640',
  ochre: '#7a5a2a',
} as const;

/** Lorelei parts that read as a calm or determined adventurer (no winks, tongues or grins). */
const OPEN_EYES = [
  'variant02',
  'variant04',
  'variant06',
  'variant08',
  'variant10',
  'variant11',
  'variant12',
  'variant13',
  'variant14',
  'variant17',
  'variant20',
  'variant21',
  'variant23',
  'variant24',
] as const;
const COMPOSED_MOUTHS = [
  'happy01',
  'happy02',
  'happy03',
  'happy04',
  'happy06',
  'happy10',
  'happy11',
  'happy13',
  'happy14',
  'sad03',
  'sad05',
  'sad09',
] as const;

type HairStyle = NonNullable<lorelei.Options['hair']>[number];
type Cut = 'tunic' | 'cloak' | 'robe' | 'harness';

interface Adventurer {
  /** Seeds DiceBear's choice among the parts left open (eyes, mouth, brows, nose, head). */
  seed: string;
  hair: HairStyle;
  hairColor: keyof typeof HAIR;
  skin: keyof typeof SKIN;
  backdrop: keyof typeof BACKDROP;
  cloth: keyof typeof CLOTH;
  cut: Cut;
  beard?: boolean;
  /** variant01 round spectacles, variant05 half-moon reading glasses. */
  glasses?: 'variant01' | 'variant05';
  freckles?: boolean;
  earrings?: boolean;
  flowers?: boolean;
}

/**
 * The cast, in portrait order: 1.png is CAST[0]. Mixed genders, ages and skin tones.
 * One adventurer per line, so the cast reads as a table.
 */
// prettier-ignore
const CAST: readonly Adventurer[] = [
  // 1-8
  { seed: 'wren', hair: 'variant23', hairColor: 'copper', skin: 'porcelain', backdrop: 'amber', cloth: 'moss', cut: 'tunic', freckles: true },
  { seed: 'oduya', hair: 'variant04', hairColor: 'raven', skin: 'brown', backdrop: 'wine', cloth: 'leather', cut: 'harness', beard: true },
  { seed: 'mother-hesk', hair: 'variant35', hairColor: 'white', skin: 'olive', backdrop: 'moss', cloth: 'midnight', cut: 'robe', glasses: 'variant05' },
  { seed: 'sefa', hair: 'variant34', hairColor: 'darkBrown', skin: 'deep', backdrop: 'dusk', cloth: 'leather', cut: 'cloak', earrings: true },
  { seed: 'liesel', hair: 'variant45', hairColor: 'honey', skin: 'fair', backdrop: 'amber', cloth: 'midnight', cut: 'cloak', flowers: true },
  { seed: 'tomas', hair: 'variant27', hairColor: 'chestnut', skin: 'bronze', backdrop: 'slate', cloth: 'moss', cut: 'harness' },
  { seed: 'old-aldric', hair: 'variant28', hairColor: 'grey', skin: 'fair', backdrop: 'amber', cloth: 'plum', cut: 'robe', beard: true, glasses: 'variant01' },
  { seed: 'nadira', hair: 'variant40', hairColor: 'raven', skin: 'deep', backdrop: 'dusk', cloth: 'wine', cut: 'cloak', earrings: true },
  // 9-16
  { seed: 'kasimir', hair: 'variant09', hairColor: 'darkBrown', skin: 'olive', backdrop: 'moss', cloth: 'ochre', cut: 'tunic' },
  { seed: 'ithilwen', hair: 'variant41', hairColor: 'elfSilver', skin: 'porcelain', backdrop: 'slate', cloth: 'midnight', cut: 'robe' },
  { seed: 'brann', hair: 'variant07', hairColor: 'auburn', skin: 'fair', backdrop: 'wine', cloth: 'leather', cut: 'harness', beard: true },
  { seed: 'amara', hair: 'variant24', hairColor: 'darkBrown', skin: 'brown', backdrop: 'amber', cloth: 'moss', cut: 'cloak' },
  { seed: 'jin', hair: 'variant36', hairColor: 'raven', skin: 'bronze', backdrop: 'moss', cloth: 'wine', cut: 'tunic' },
  { seed: 'grandmother-oyelaran', hair: 'variant38', hairColor: 'grey', skin: 'brown', backdrop: 'slate', cloth: 'ash', cut: 'robe', glasses: 'variant05' },
  { seed: 'sage-mbeki', hair: 'variant25', hairColor: 'white', skin: 'deep', backdrop: 'dusk', cloth: 'ochre', cut: 'cloak', beard: true },
  { seed: 'morwenna', hair: 'variant15', hairColor: 'witchPlum', skin: 'fair', backdrop: 'dusk', cloth: 'plum', cut: 'robe', earrings: true },
  // 17-24
  { seed: 'pip', hair: 'variant44', hairColor: 'flaxen', skin: 'porcelain', backdrop: 'slate', cloth: 'midnight', cut: 'tunic', freckles: true },
  { seed: 'rosalind', hair: 'variant19', hairColor: 'chestnut', skin: 'olive', backdrop: 'wine', cloth: 'leather', cut: 'harness' },
  { seed: 'kwame', hair: 'variant47', hairColor: 'raven', skin: 'deep', backdrop: 'amber', cloth: 'moss', cut: 'harness', beard: true },
  { seed: 'saoirse', hair: 'variant42', hairColor: 'auburn', skin: 'bronze', backdrop: 'moss', cloth: 'wine', cut: 'cloak' },
  { seed: 'mei', hair: 'variant26', hairColor: 'raven', skin: 'olive', backdrop: 'amber', cloth: 'ochre', cut: 'tunic' },
  { seed: 'farid', hair: 'variant39', hairColor: 'chestnut', skin: 'brown', backdrop: 'slate', cloth: 'ash', cut: 'cloak', beard: true },
  { seed: 'zawadi', hair: 'variant30', hairColor: 'honey', skin: 'deep', backdrop: 'dusk', cloth: 'midnight', cut: 'cloak', earrings: true },
  { seed: 'master-ilario', hair: 'variant05', hairColor: 'grey', skin: 'bronze', backdrop: 'wine', cloth: 'ash', cut: 'robe', glasses: 'variant01' },
  // 25-32
  { seed: 'corvina', hair: 'variant13', hairColor: 'raven', skin: 'porcelain', backdrop: 'slate', cloth: 'wine', cut: 'robe' },
  { seed: 'tobiah', hair: 'variant12', hairColor: 'raven', skin: 'brown', backdrop: 'amber', cloth: 'leather', cut: 'tunic', freckles: true },
  { seed: 'dame-edith', hair: 'variant46', hairColor: 'white', skin: 'fair', backdrop: 'wine', cloth: 'moss', cut: 'cloak' },
  { seed: 'halvard', hair: 'variant03', hairColor: 'flaxen', skin: 'olive', backdrop: 'moss', cloth: 'leather', cut: 'harness', beard: true },
  { seed: 'lucia', hair: 'variant31', hairColor: 'darkBrown', skin: 'bronze', backdrop: 'slate', cloth: 'plum', cut: 'cloak', flowers: true },
  { seed: 'ash', hair: 'variant22', hairColor: 'raven', skin: 'deep', backdrop: 'amber', cloth: 'ochre', cut: 'robe' },
  { seed: 'rory', hair: 'variant01', hairColor: 'copper', skin: 'porcelain', backdrop: 'dusk', cloth: 'moss', cut: 'tunic', beard: true },
  { seed: 'aunt-sabine', hair: 'variant48', hairColor: 'grey', skin: 'brown', backdrop: 'moss', cloth: 'midnight', cut: 'robe', earrings: true },
];

const TUNIC_PATH = 'M8 258C14 226 52 208 96 204L128 236L160 204C204 208 242 226 248 258Z';

/** Clothes drawn over the bottom of the avatar, which ends in a bare neck. Coordinates are in a 256 box. */
function clothesSvg(cut: Cut, cloth: string): string {
  const line = `stroke="${INK}" stroke-width="4" stroke-linejoin="round"`;
  const clasp = (y: number) =>
    `<circle cx="128" cy="${y}" r="5.5" fill="${CANDLE_GOLD}" stroke="${INK}" stroke-width="2"/>`;
  switch (cut) {
    case 'tunic':
      return `<path d="${TUNIC_PATH}" fill="${cloth}" ${line}/>`;
    case 'harness':
      return (
        `<path d="${TUNIC_PATH}" fill="${cloth}" ${line}/>` +
        `<path d="M62 212L82 206L196 258L166 258Z" fill="${STRAP_LEATHER}" ${line}/>` +
        `<rect x="112" y="226" width="14" height="12" rx="2" transform="rotate(24 119 232)" fill="none" stroke="${CANDLE_GOLD}" stroke-width="3"/>`
      );
    case 'cloak':
      return (
        `<path d="M0 258C4 222 44 200 96 196L128 244L160 196C212 200 252 222 256 258Z" fill="${cloth}" ${line}/>` +
        `<path d="M96 196L84 214L120 248L128 244ZM160 196L172 214L136 248L128 244Z" fill="${INK}" fill-opacity="0.35" ${line}/>` +
        clasp(242)
      );
    case 'robe':
      return (
        `<path d="M8 258C14 226 52 210 90 205C102 224 154 224 166 205C204 210 242 226 248 258Z" fill="${cloth}" ${line}/>` +
        `<path d="M92 213C106 231 150 231 164 213" fill="none" stroke="${CANDLE_GOLD}" stroke-width="2.5"/>`
      );
  }
}

function portraitSvg(adventurer: Adventurer, index: number): string {
  const face = createAvatar(lorelei, {
    seed: adventurer.seed,
    // Alternate the gaze so a grid of portraits does not all look the same way.
    flip: index % 2 === 1,
    scale: 92,
    translateY: -2,
    hair: [adventurer.hair],
    hairColor: [HAIR[adventurer.hairColor]],
    skinColor: [SKIN[adventurer.skin]],
    eyes: [...OPEN_EYES],
    mouth: [...COMPOSED_MOUTHS],
    beardProbability: adventurer.beard ? 100 : 0,
    glasses: adventurer.glasses ? [adventurer.glasses] : undefined,
    glassesProbability: adventurer.glasses ? 100 : 0,
    frecklesProbability: adventurer.freckles ? 100 : 0,
    earringsProbability: adventurer.earrings ? 100 : 0,
    earringsColor: [CANDLE_GOLD.slice(1)],
    hairAccessoriesProbability: adventurer.flowers ? 100 : 0,
    hairAccessoriesColor: [PARCHMENT],
  }).toString();
  const size = PORTRAIT_SIZE;
  // Everything is drawn in a 256 box and scaled to the output size.
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 256 256">`,
    '<defs><radialGradient id="backdrop" cx="50%" cy="42%" r="65%">',
    `<stop offset="0" stop-color="${BACKDROP[adventurer.backdrop]}"/><stop offset="1" stop-color="${INK}"/>`,
    '</radialGradient></defs>',
    '<rect width="256" height="256" fill="url(#backdrop)"/>',
    face.replace('<svg ', '<svg width="256" height="256" '),
    clothesSvg(adventurer.cut, CLOTH[adventurer.cloth]),
    '</svg>',
  ].join('');
}

/** resvg writes RGBA with light compression; an opaque RGB PNG at deflate level 9 is about 40% smaller. */
function rasterise(svg: string): Buffer {
  const rendered = new Resvg(svg).render();
  const png = new PNG({ width: rendered.width, height: rendered.height });
  png.data = Buffer.from(rendered.pixels);
  return PNG.sync.write(png, {
    colorType: 2,
    inputColorType: 6,
    inputHasAlpha: true,
    deflateLevel: 9,
    // zlib's default strategy; pngjs's own default (RLE) leaves these files about a third larger.
    deflateStrategy: 0,
  });
}

function generatePortraits(): void {
  if (CAST.length !== PORTRAIT_COUNT) {
    throw new Error(
      `SPEC.md section 3 asks for ${PORTRAIT_COUNT} portraits, the cast has ${CAST.length}`,
    );
  }
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  let total = 0;
  CAST.forEach((adventurer, index) => {
    const file = path.join(OUTPUT_DIR, `${index + 1}.png`);
    const png = rasterise(portraitSvg(adventurer, index));
    fs.writeFileSync(file, png);
    total += png.length;
  });
  process.stdout.write(
    `Wrote ${CAST.length} portraits to ${OUTPUT_DIR} (${(total / 1024).toFixed(1)} KB)\n`,
  );
}

generatePortraits();

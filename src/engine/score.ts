/**
 * The score an ending earns: SPEC.md section 9, "Ending score". A database trigger recomputes
 * the same formula, so keep it plain arithmetic that reads the same in SQL.
 */
import { ENDING_TYPES } from './types';
import type { NamedEndingType, ScoreBreakdown } from './types';

/** Ending multipliers in tenths, so the product stays exact (no 1.3 rounding error). */
export const ENDING_MULTIPLIER_TENTHS: Readonly<Record<NamedEndingType, number>> = {
  'Heroic Victory': 15,
  'Pyrrhic Victory': 13,
  'Antihero Triumph': 12,
  'Bittersweet Resolution': 10,
  'Tragic Downfall': 8,
};
/** Any other ending the model names counts as 1.0. */
export const OTHER_ENDING_MULTIPLIER_TENTHS = 10;
/** Finishing quickly earns up to 20 points, nothing from turn 30 on. */
export const SPEED_BONUS = 20;
export const SPEED_BONUS_TURNS = 30;
/** A perfect success rate earns 15 points. */
export const SUCCESS_BONUS = 15;

/**
 * Korean names the model gives endings, and the English type each one is. A Map rather than
 * an object, so a model-made name such as 'valueOf' cannot reach Object.prototype.
 */
const KOREAN_ENDING_TYPES = new Map<string, NamedEndingType>([
  ['영웅적 승리', 'Heroic Victory'],
  ['영웅적인 승리', 'Heroic Victory'],
  ['피로스의 승리', 'Pyrrhic Victory'],
  ['상처뿐인 승리', 'Pyrrhic Victory'],
  ['안티히어로의 승리', 'Antihero Triumph'],
  ['반영웅의 승리', 'Antihero Triumph'],
  ['비극적 몰락', 'Tragic Downfall'],
  ['비극적인 몰락', 'Tragic Downfall'],
  ['씁쓸한 결말', 'Bittersweet Resolution'],
  ['달콤씁쓸한 결말', 'Bittersweet Resolution'],
  ['씁쓸한 해결', 'Bittersweet Resolution'],
]);

export type EndingStyle = 'heroic' | 'pyrrhic' | 'antihero' | 'tragic' | 'bittersweet' | 'other';

const ENDING_STYLES: Readonly<Record<NamedEndingType, EndingStyle>> = {
  'Heroic Victory': 'heroic',
  'Pyrrhic Victory': 'pyrrhic',
  'Antihero Triumph': 'antihero',
  'Tragic Downfall': 'tragic',
  'Bittersweet Resolution': 'bittersweet',
};

export interface EndingScoreInput {
  scoreBreakdown: ScoreBreakdown;
  turnCount: number;
  successRate: number;
  endingType: string;
}

export interface EndingScore {
  base: number;
  bonus: number;
  multiplier: number;
  score: number;
}

/** The named ending type a name stands for, in English or Korean, ignoring case and spacing. */
function namedEndingType(name: string): NamedEndingType | undefined {
  const key = name.trim().replace(/\s+/g, ' ');
  const lower = key.toLowerCase();
  return KOREAN_ENDING_TYPES.get(key) ?? ENDING_TYPES.find((type) => type.toLowerCase() === lower);
}

/** The English ending type for a Korean (or differently cased) name; other names unchanged. */
export function toEnglishEndingType(name: string): string {
  return namedEndingType(name) ?? name;
}

/** The ending screen's styling class for an ending type, in either language. */
export function endingStyle(name: string): EndingStyle {
  const type = namedEndingType(name);
  return type === undefined ? 'other' : ENDING_STYLES[type];
}

/**
 * score = round(round(base + bonus) * multiplier), where
 *   base  = decisions + consistency + creativity
 *   bonus = 20 * max(0, 30 - turns) / 30 + successRate * 15 / 100
 * The multiplier is applied as tenths (x * 13 / 10 rather than x * 1.3) so halves land
 * exactly, as they do in SQL numeric arithmetic; Math.round rounds halves up, which matches
 * SQL round() for the non-negative scores the game produces.
 */
export function endingScore(input: EndingScoreInput): EndingScore {
  const { scoreBreakdown, turnCount, successRate, endingType } = input;
  const base = scoreBreakdown.decisions + scoreBreakdown.consistency + scoreBreakdown.creativity;
  const bonus =
    (SPEED_BONUS * Math.max(0, SPEED_BONUS_TURNS - turnCount)) / SPEED_BONUS_TURNS +
    (successRate * SUCCESS_BONUS) / 100;
  const type = namedEndingType(endingType);
  const tenths =
    type === undefined ? OTHER_ENDING_MULTIPLIER_TENTHS : ENDING_MULTIPLIER_TENTHS[type];
  const score = Math.round((Math.round(base + bonus) * tenths) / 10);
  return { base, bonus, multiplier: tenths / 10, score };
}

/**
 * The player's stats: their ranges (SPEC.md section 9) and how each choice moves them (SPEC.md
 * section 4, "Stat updates per choice").
 */
import { isRecord } from './guards';
import { INITIAL_PLAYER_STATS } from './types';
import type { Alignment, Outcome, PlayerStats, Risk } from './types';

export type Stat = keyof PlayerStats;

/** SPEC.md section 9, "Stat ranges": moral -100..100, the others 0..100. */
export const STAT_RANGES: Readonly<Record<Stat, { min: number; max: number }>> = {
  moralScore: { min: -100, max: 100 },
  riskScore: { min: 0, max: 100 },
  traitConsistency: { min: 0, max: 100 },
  creativity: { min: 0, max: 100 },
  successRate: { min: 0, max: 100 },
};

export const RISK_DELTA: Readonly<Record<Risk, number>> = { high: 8, medium: 5, low: -5 };
export const MORAL_DELTA: Readonly<Record<Alignment, number>> = {
  moral: 10,
  immoral: -10,
  neutral: 0,
};
export const IN_CHARACTER_DELTA = 5;
export const OUT_OF_CHARACTER_DELTA = -3;
export const CREATIVITY_DELTA = 8;

/** The parts of an option that move stats. A free-text choice comes as medium, neutral, ''. */
export interface StatChoice {
  risk: Risk;
  alignment: Alignment;
  traitAlignment: string;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

function inRange(stat: Stat, value: number): number {
  return clamp(value, STAT_RANGES[stat].min, STAT_RANGES[stat].max);
}

/**
 * Stats read back from a saved or imported story, each inside its range: a value that is not a
 * finite number (NaN, a string, missing) is the stat's start value; any other is clamped.
 */
export function playerStatsInRange(stored: unknown): PlayerStats {
  const record = isRecord(stored) ? stored : {};
  const stats = { ...INITIAL_PLAYER_STATS };
  for (const stat of Object.keys(STAT_RANGES) as Stat[]) {
    const value = record[stat];
    if (typeof value === 'number' && Number.isFinite(value)) stats[stat] = inRange(stat, value);
  }
  return stats;
}

/** Successes as a whole percentage of successes plus failures; partials do not count. */
export function successRate(outcomes: readonly Outcome[]): number {
  const successes = outcomes.filter((outcome) => outcome === 'success').length;
  const failures = outcomes.filter((outcome) => outcome === 'failure').length;
  const decided = successes + failures;
  return decided === 0 ? 0 : Math.round((100 * successes) / decided);
}

/**
 * The stats after one choice. `outcomesSoFar` already holds this turn's `outcome`, since the
 * success rate is worked out over every turn played.
 */
export function applyChoiceToStats(
  stats: PlayerStats,
  choice: StatChoice,
  outcome: Outcome,
  outcomesSoFar: readonly Outcome[],
): PlayerStats {
  const playsToTrait = choice.traitAlignment.trim() !== '';
  const boldSuccess = outcome === 'success' && choice.risk === 'high';
  return {
    riskScore: inRange('riskScore', stats.riskScore + RISK_DELTA[choice.risk]),
    moralScore: inRange('moralScore', stats.moralScore + MORAL_DELTA[choice.alignment]),
    traitConsistency: inRange(
      'traitConsistency',
      stats.traitConsistency + (playsToTrait ? IN_CHARACTER_DELTA : OUT_OF_CHARACTER_DELTA),
    ),
    creativity: inRange('creativity', stats.creativity + (boldSuccess ? CREATIVITY_DELTA : 0)),
    successRate: successRate(outcomesSoFar),
  };
}

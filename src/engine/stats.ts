/** How each choice moves the player's stats: SPEC.md section 4, "Stat updates per choice". */
import type { Alignment, Outcome, PlayerStats, Risk } from './types';

export const STAT_MIN = 0;
export const STAT_MAX = 100;
export const MORAL_MIN = -100;
export const MORAL_MAX = 100;

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
    riskScore: clamp(stats.riskScore + RISK_DELTA[choice.risk], STAT_MIN, STAT_MAX),
    moralScore: clamp(stats.moralScore + MORAL_DELTA[choice.alignment], MORAL_MIN, MORAL_MAX),
    traitConsistency: clamp(
      stats.traitConsistency + (playsToTrait ? IN_CHARACTER_DELTA : OUT_OF_CHARACTER_DELTA),
      STAT_MIN,
      STAT_MAX,
    ),
    creativity: clamp(stats.creativity + (boldSuccess ? CREATIVITY_DELTA : 0), STAT_MIN, STAT_MAX),
    successRate: successRate(outcomesSoFar),
  };
}

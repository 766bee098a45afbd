/** How a choice turns out: SPEC.md section 4, "Outcome roll". */
import type { Outcome, Risk, Rng } from './types';

export const BASE_FAILURE_CHANCE: Readonly<Record<Risk, number>> = {
  high: 0.4,
  medium: 0.25,
  low: 0.1,
};
/** traitConsistency / 200 comes off the failure chance: staying in character helps. */
export const TRAIT_CONSISTENCY_DIVISOR = 200;
/** The story grows harder: up to +0.15, reached at turn 30. */
export const TURN_FACTOR = 0.15;
export const TURN_FACTOR_CAP_TURNS = 30;
/** Three successes in a row make the next one less likely. */
export const SUCCESS_STREAK_TURNS = 3;
export const SUCCESS_STREAK_BONUS = 0.2;
export const FAILURE_CHANCE_FLOOR = 0.05;
/** Partial success is the band just above the failure chance. */
export const PARTIAL_BAND = 0.3;
/** Five successes in a row force a failure 70% of the time. */
export const FORCED_FAILURE_STREAK = 5;
export const FORCED_FAILURE_CHANCE = 0.7;

export interface OutcomeRollInput {
  risk: Risk;
  traitConsistency: number;
  turnCount: number;
  /** Earlier turns' outcomes, oldest first; only the tail matters. */
  recentOutcomes: readonly Outcome[];
}

export interface OutcomeOdds {
  failure: number;
  partial: number;
  success: number;
}

/** Whether the last `turns` outcomes were all successes (false when there were fewer turns). */
export function isSuccessStreak(outcomes: readonly Outcome[], turns: number): boolean {
  const tail = outcomes.slice(-turns);
  return tail.length === turns && tail.every((outcome) => outcome === 'success');
}

/** The failure chance of an ordinary roll, before any forced failure. */
export function failureChance(input: OutcomeRollInput): number {
  const { risk, traitConsistency, turnCount, recentOutcomes } = input;
  const chance =
    BASE_FAILURE_CHANCE[risk] -
    traitConsistency / TRAIT_CONSISTENCY_DIVISOR +
    TURN_FACTOR * Math.min(turnCount / TURN_FACTOR_CAP_TURNS, 1) +
    (isSuccessStreak(recentOutcomes, SUCCESS_STREAK_TURNS) ? SUCCESS_STREAK_BONUS : 0);
  return Math.max(chance, FAILURE_CHANCE_FLOOR);
}

/**
 * Rolls this turn's outcome. After five straight successes one roll may force a failure;
 * otherwise a single roll lands in failure [0, f), partial [f, f + 0.3) or success above.
 */
export function rollOutcome(input: OutcomeRollInput, rng: Rng): Outcome {
  if (isSuccessStreak(input.recentOutcomes, FORCED_FAILURE_STREAK)) {
    if (rng() < FORCED_FAILURE_CHANCE) return 'failure';
  }
  const failure = failureChance(input);
  const roll = rng();
  if (roll < failure) return 'failure';
  if (roll < failure + PARTIAL_BAND) return 'partial';
  return 'success';
}

/** The exact probability of each outcome that rollOutcome gives for this input. */
export function outcomeOdds(input: OutcomeRollInput): OutcomeOdds {
  const failure = Math.min(failureChance(input), 1);
  const partial = Math.min(PARTIAL_BAND, 1 - failure);
  const ordinary: OutcomeOdds = { failure, partial, success: 1 - failure - partial };
  if (!isSuccessStreak(input.recentOutcomes, FORCED_FAILURE_STREAK)) return ordinary;

  const rolled = 1 - FORCED_FAILURE_CHANCE;
  return {
    failure: FORCED_FAILURE_CHANCE + rolled * ordinary.failure,
    partial: rolled * ordinary.partial,
    success: rolled * ordinary.success,
  };
}

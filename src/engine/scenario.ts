/** Which kind of scene comes next: SPEC.md section 4, "Scenario type selection". */
import { pickOne } from './random';
import { SCENARIO_TYPES } from './types';
import type { Alignment, PlayerStats, Rng, ScenarioType } from './types';

/** How many past scenarios (and moral choices) the rules look back over (SPEC.md section 9). */
export const SCENARIO_MEMORY = 5;

/** Rule 1: the climax turns, inclusive, and the chance that the climax is a challenge. */
export const CLIMAX_FIRST_TURN = 15;
export const CLIMAX_LAST_TURN = 18;
export const CLIMAX_CHALLENGE_CHANCE = 0.6;

/** Rules 2 to 7: when each applies and how likely it is to fire. */
export const DARK_MORAL_SCORE = -50;
export const DARK_CONSEQUENCE_CHANCE = 0.7;
export const DARING_RISK_SCORE = 70;
export const DARING_CHALLENGE_CHANCE = 0.7;
export const EARLY_TURNS = 5;
export const EARLY_COMPANION_CHANCE = 0.5;
export const UNDECIDED_MORAL_SCORE = 30;
export const UNDECIDED_MORAL_CHOICE_CHANCE = 0.6;
export const LEANING_SHARE = 0.7;
export const VIRTUOUS_BETRAYAL_CHANCE = 0.6;
export const WICKED_CONSEQUENCE_CHANCE = 0.6;

/** Rule 8: the otherwise branch; its random pick avoids only the last 2 scenarios. */
export const DILEMMA_CHANCE = 0.3;
export const STANDARD_CHANCE_START = 0.4;
export const STANDARD_CHANCE_FALL_TURNS = 40;
export const STANDARD_CHANCE_FLOOR = 0.1;
export const RANDOM_PICK_MEMORY = 2;

export interface ScenarioInput {
  turnCount: number;
  playerStats: PlayerStats;
  scenarioHistory: readonly ScenarioType[];
  moralChoices: readonly Alignment[];
}

/** The chance that an otherwise-turn is a plain standard scene: it falls as the story goes on. */
export function standardChance(turnCount: number): number {
  return Math.max(
    STANDARD_CHANCE_START - turnCount / STANDARD_CHANCE_FALL_TURNS,
    STANDARD_CHANCE_FLOOR,
  );
}

/**
 * Whether more than 70% of the last 5 moral choices were `alignment`. Rules 6 and 7 speak of
 * the last 5 choices, so they wait until there are 5: one moral choice is not a leaning.
 */
export function isLeaning(moralChoices: readonly Alignment[], alignment: Alignment): boolean {
  const recent = moralChoices.slice(-SCENARIO_MEMORY);
  if (recent.length < SCENARIO_MEMORY) return false;
  const matching = recent.filter((choice) => choice === alignment).length;
  return matching / recent.length > LEANING_SHARE;
}

/**
 * Picks the next scene's type, trying the rules in SPEC.md's order. A rule whose condition
 * holds rolls once; it fires when the roll is under its chance and its type was not among the
 * last 5 scenarios (no special type repeats that soon), otherwise the next rule is tried.
 */
export function chooseScenarioType(input: ScenarioInput, rng: Rng): ScenarioType {
  const { turnCount, playerStats, scenarioHistory, moralChoices } = input;
  const recent = scenarioHistory.slice(-SCENARIO_MEMORY);
  const isFresh = (type: ScenarioType) => !recent.includes(type);
  const fires = (applies: boolean, chance: number, type: ScenarioType) =>
    applies && rng() < chance && isFresh(type);

  // Rule 1: the climax turns bring a challenge or a betrayal, unless one happened lately.
  const isClimax = turnCount >= CLIMAX_FIRST_TURN && turnCount <= CLIMAX_LAST_TURN;
  if (isClimax && isFresh('challenge') && isFresh('betrayal')) {
    return rng() < CLIMAX_CHALLENGE_CHANCE ? 'challenge' : 'betrayal';
  }

  const { moralScore, riskScore } = playerStats;
  // Rules 2 to 7, in order: [the rule applies, its chance, the type it brings].
  const rules: readonly [boolean, number, ScenarioType][] = [
    [moralScore < DARK_MORAL_SCORE, DARK_CONSEQUENCE_CHANCE, 'consequence'],
    [riskScore > DARING_RISK_SCORE, DARING_CHALLENGE_CHANCE, 'challenge'],
    [turnCount < EARLY_TURNS, EARLY_COMPANION_CHANCE, 'companion'],
    [Math.abs(moralScore) < UNDECIDED_MORAL_SCORE, UNDECIDED_MORAL_CHOICE_CHANCE, 'moral_choice'],
    [isLeaning(moralChoices, 'moral'), VIRTUOUS_BETRAYAL_CHANCE, 'betrayal'],
    [isLeaning(moralChoices, 'immoral'), WICKED_CONSEQUENCE_CHANCE, 'consequence'],
  ];
  for (const [applies, chance, type] of rules) {
    if (fires(applies, chance, type)) return type;
  }

  // Rule 8: otherwise a dilemma, a standard scene, or any other type not seen lately.
  if (fires(true, DILEMMA_CHANCE, 'dilemma')) return 'dilemma';
  if (rng() < standardChance(turnCount)) return 'standard';
  return randomOtherType(scenarioHistory.slice(-RANDOM_PICK_MEMORY), rng);
}

/**
 * Rule 8's last branch: a uniformly random special type that was not one of the last two
 * scenarios (SPEC.md section 4, rule 8: this pick looks back 2, not 5).
 */
function randomOtherType(lastTwo: readonly ScenarioType[], rng: Rng): ScenarioType {
  const candidates = SCENARIO_TYPES.filter(
    (type) => type !== 'standard' && !lastTwo.includes(type),
  );
  return pickOne(candidates, rng);
}

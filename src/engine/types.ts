/** Shared vocabulary of the game's rules (SPEC.md sections 3 and 4). Plain data only. */

/** A random source in [0, 1), like Math.random. Every rule that rolls takes one. */
export type Rng = () => number;

export type Risk = 'low' | 'medium' | 'high';
export type Alignment = 'moral' | 'immoral' | 'neutral';
export type Outcome = 'success' | 'partial' | 'failure';

export const SCENARIO_TYPES = [
  'standard',
  'dilemma',
  'consequence',
  'challenge',
  'companion',
  'betrayal',
  'moral_choice',
] as const;
export type ScenarioType = (typeof SCENARIO_TYPES)[number];

/** One choice offered to the player (SPEC.md section 3, "Option"). */
export interface StoryOption {
  text: string;
  risk: Risk;
  alignment: Alignment;
  /** The character trait this option plays to; empty when none. */
  traitAlignment: string;
}

/** SPEC.md section 3, playerStats. moralScore is -100..100, the rest 0..100. */
export interface PlayerStats {
  moralScore: number;
  riskScore: number;
  traitConsistency: number;
  creativity: number;
  successRate: number;
}

export const INITIAL_PLAYER_STATS: PlayerStats = {
  moralScore: 0,
  riskScore: 0,
  traitConsistency: 0,
  creativity: 0,
  successRate: 0,
};

/** SPEC.md section 3, scoreBreakdown, as the recap reports it. */
export interface ScoreBreakdown {
  decisions: number;
  consistency: number;
  creativity: number;
  morality: number;
}

export const INITIAL_SCORE_BREAKDOWN: ScoreBreakdown = {
  decisions: 0,
  consistency: 0,
  creativity: 0,
  morality: 0,
};

/** The five named ending types; the model may also name another fitting type. */
export const ENDING_TYPES = [
  'Heroic Victory',
  'Pyrrhic Victory',
  'Antihero Triumph',
  'Tragic Downfall',
  'Bittersweet Resolution',
] as const;
export type NamedEndingType = (typeof ENDING_TYPES)[number];

/** Interface languages (SPEC.md section 1): English and Korean; Korean falls back to English. */
export const LANGUAGES = ['en', 'kr'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * What each of the nine prompts of SPEC.md section 7 is built from, as plain data, and the
 * two rules every language's prompts share: the length guidance (SPEC.md section 5) and the
 * story context window (the last 16 summaries, SPEC.md section 9).
 */
import type {
  Alignment,
  Outcome,
  PlayerStats,
  ScenarioType,
  StoryOption,
} from '../../../engine/types';

/** The lengths the prompts ask for, in words (SPEC.md section 5). */
export const LENGTH_GUIDANCE = {
  /** The opening scene; later segments and the ending use the same range (the spec names none). */
  storyWords: { min: 65, max: 200 },
  optionWords: { min: 10, max: 30 },
  openingOptions: { min: 2, max: 4 },
  turnOptions: { min: 3, max: 4 },
  bioMaxWords: 70,
  summaryMaxWords: 40,
  /** The recap's closing paragraph: our choice, the spec names no length. */
  wrapUpWords: { min: 80, max: 150 },
  quirks: 5,
  facialFeatures: 5,
} as const;

/** How many summaries of the story so far a prompt carries (SPEC.md section 9). */
export const STORY_CONTEXT_SUMMARIES = 16;

/** Of those, how many of the newest are carried whole; the older ones as their gist. */
export const WHOLE_SUMMARIES = 8;

/** The most words an older summary's gist keeps. */
export const GIST_MAX_WORDS = 20;

/**
 * A sentence ends at . ! ? or 。 (and a closing quote or bracket) before the end or a space and
 * a word that is not lowercase: in '"Run!" she cried.' the sentence goes on after the quote.
 */
const FIRST_SENTENCE = /^.+?[.!?\u3002]["'\u2019\u201d)]*(?=\s+[^\s\p{Ll}]|\s*$)/su;

/**
 * An older summary's gist: its first sentence, at most 20 words (cut with an ellipsis). The
 * segment summary prompts ask for the choice and what came of it in that first sentence.
 */
export function summaryGist(summary: string): string {
  const sentence = (FIRST_SENTENCE.exec(summary.trim())?.[0] ?? summary).trim();
  const words = sentence.split(/\s+/).filter((word) => word !== '');
  return words.length <= GIST_MAX_WORDS
    ? words.join(' ')
    : `${words.slice(0, GIST_MAX_WORDS).join(' ')}...`;
}

/**
 * The story context every prompt carries, oldest first: the last 16 summaries, the newest 8
 * whole and the 8 before them as their gist. So a turn's prompt stays the same size however
 * long the story runs, and grows little while the window fills (turn 100's prompt within 1.2x
 * of turn 10's: npm run bench), while the model still sees the last 16 turns.
 */
export function storyContext(summaries: readonly string[]): readonly string[] {
  const recent = summaries.slice(-STORY_CONTEXT_SUMMARIES);
  const older = recent.length - WHOLE_SUMMARIES;
  return recent.map((summary, index) => (index < older ? summaryGist(summary) : summary));
}

/** The hero as the prompts describe them, once the character profile exists. */
export interface CharacterSketch {
  name: string;
  /** 'male', 'female' or 'non-binary' (SPEC.md section 3); another word is passed through. */
  gender: string;
  bio: string;
  /** The five quirks of the character profile; options' traitAlignment names one of them. */
  traits: readonly string[];
}

export interface GenderFromNameInput {
  name: string;
}

export interface CharacterProfileInput {
  name: string;
  genre: string;
  /** The gender already read from the name, when known; the model keeps it. */
  gender?: string;
}

export interface OpeningSceneInput {
  character: CharacterSketch;
  genre: string;
}

export interface OpeningSummaryInput {
  characterName: string;
  genre: string;
  storyStart: string;
}

/**
 * One turn after the player's choice: the game has already rolled the outcome and picked the
 * scenario type (DESIGN.md, "Language model"); the model writes the story to fit them.
 */
export interface TurnInput {
  character: CharacterSketch;
  genre: string;
  /** Every summary so far, oldest first; the prompt keeps only the last 16. */
  summaries: readonly string[];
  previousParagraph: string;
  /** The option taken; a typed choice is medium risk, neutral, with no trait alignment. */
  choice: StoryOption;
  outcome: Outcome;
  scenarioType: ScenarioType;
  turnCount: number;
  playerStats: PlayerStats;
}

export type NextSegmentInput = TurnInput;
/** From turn 7 (SPEC.md section 4) the same turn, and the model decides whether it ends. */
export type ConclusionCheckInput = TurnInput;

export interface SegmentSummaryInput {
  characterName: string;
  /** The action that led to the segment, when there was one. */
  choiceText?: string;
  storySegment: string;
}

export interface RecapInput {
  character: CharacterSketch;
  genre: string;
  /** Every summary so far, oldest first; the prompt keeps only the last 16. */
  summaries: readonly string[];
  /** The ending the model wrote. */
  finalParagraph: string;
  turnCount: number;
  playerStats: PlayerStats;
  /** One alignment per choice (SPEC.md section 3, moralChoices); the prompt gives the counts. */
  moralChoices: readonly Alignment[];
  /** One outcome per turn; the prompt gives the counts. */
  outcomes: readonly Outcome[];
}

/** The keys each use's reply holds (SPEC.md section 7); they stay English in every language. */
export const REPLY_KEYS = {
  genderFromName: ['gender'],
  characterProfile: [
    'characterQuirks',
    'characterGender',
    'characterBio',
    'characterFacialFeatures',
  ],
  openingScene: ['storyStart', 'options'],
  openingSummary: ['newStorySummary'],
  nextSegment: ['storySegment', 'options', 'outcome', 'scenarioType'],
  conclusionCheck: ['storySegment', 'options', 'isFinal'],
  segmentSummary: ['storySummary'],
  recap: [
    'wrapUpParagraph',
    'bigMoment',
    'frequentActivity',
    'characterTraitHighlight',
    'themeExploration',
    'overallScore',
    'scoreBreakdown',
    'endingType',
  ],
} as const;

export type PromptUse = keyof typeof REPLY_KEYS;

/** One language's prompts: each builder returns the user message for its use. */
export interface PromptBuilders {
  genderFromName(input: GenderFromNameInput): string;
  characterProfile(input: CharacterProfileInput): string;
  openingScene(input: OpeningSceneInput): string;
  openingSummary(input: OpeningSummaryInput): string;
  nextSegment(input: NextSegmentInput): string;
  conclusionCheck(input: ConclusionCheckInput): string;
  segmentSummary(input: SegmentSummaryInput): string;
  recap(input: RecapInput): string;
}

/** The builders plus the system message that goes with every one of them. */
export interface Prompts extends PromptBuilders {
  systemPrompt: string;
}

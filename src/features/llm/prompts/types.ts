/**
 * What each of the nine prompts of SPEC.md section 7 is built from, as plain data, and the
 * rules every language's prompts share: the length guidance (SPEC.md section 5), what each
 * reply may spend, and the story context, trimmed to a token budget so that a turn's request
 * fits a free tier however long the story runs (DESIGN.md, "Free tiers first").
 */
import type {
  Alignment,
  Outcome,
  PlayerStats,
  ScenarioType,
  StoryOption,
} from '../../../engine/types';
import {
  loreForOpening,
  loreForTurn,
  type LoreEntry,
  type ToldLoreEntry,
  type TurnTexts,
} from '../../../engine/lorebook';
import { sheetToTell } from '../../../engine/sheetTelling';
import type { SheetEntry, SheetKind } from '../../../engine/storySheet';
import { estimateTokens } from '../tokens';
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

/**
 * What each reply may spend, in tokens (max_tokens; a reasoning model gets its allowance on
 * top): a story turn the spec's 1,000, the rest what their fields need in Korean, the language
 * that takes the most tokens for the same words.
 */
export const REPLY_TOKENS = {
  genderFromName: 40,
  characterProfile: 500,
  openingScene: 1000,
  openingSummary: 200,
  nextSegment: 1000,
  conclusionCheck: 1000,
  segmentSummary: 200,
  recap: 800,
} as const satisfies Record<PromptUse, number>;

/**
 * The most a prompt may be, by estimate (tokens.ts), system message included: with a turn's
 * reply and reasoning allowance, a turn reserves under 4,000 tokens, half a free Groq minute.
 */
export const PROMPT_TOKEN_BUDGET = 2000;

/**
 * The most the story context may take of a prompt, by estimate: enough for the last several
 * turns whole and older ones as their gist, and small enough that turn 100's prompt is within
 * 1.2x of turn 10's (npm run bench).
 */
export const STORY_CONTEXT_TOKEN_BUDGET = 500;

/**
 * The most the story sheet may take of a prompt, by estimate: about 25 entries with their notes.
 * A fuller sheet is told without its closed threads and the entries the story left longest
 * (engine/storySheet.ts, sheetToTell).
 */
export const SHEET_TOKEN_BUDGET = 300;

/** The changes a reply is asked for, at most (engine/storySheet.ts reads a few more). */
export const SHEET_CHANGES_ASKED = 5;

/** How the prompts group the sheet: by kind, closed threads on a line of their own, last. */
export type SheetGroup = SheetKind | 'closed';
export const SHEET_TOLD_ORDER: readonly SheetGroup[] = [
  'person',
  'item',
  'place',
  'thread',
  'condition',
  'closed',
];
export const sheetGroup = (entry: SheetEntry): SheetGroup => (entry.closed ? 'closed' : entry.kind);

/** What a sheet entry costs in a prompt: its name, its note and the separators. */
const sheetEntryCost = (entry: SheetEntry) => estimateTokens(`${entry.name}: ${entry.note}`) + 3;

/**
 * The sheet entries a story prompt tells, within SHEET_TOKEN_BUDGET: `paragraphs` are the
 * story's, oldest first (which the story mentioned lately stays longest).
 */
export function sheetTold(
  entries: readonly SheetEntry[],
  paragraphs: readonly string[],
  budget: number = SHEET_TOKEN_BUDGET,
): SheetEntry[] {
  return sheetToTell(entries, paragraphs, budget, sheetEntryCost);
}

/**
 * The lorebook entries a turn's prompt tells (engine/lorebook.ts): those marked always, then
 * those whose keywords the last paragraph, the choice or the told sheet mention, most recently
 * mentioned first, within LOREBOOK_TOKEN_BUDGET.
 */
export function loreTold(
  lorebook: readonly LoreEntry[],
  texts: Omit<TurnTexts, 'sheet'>,
  sheet: readonly SheetEntry[],
): ToldLoreEntry[] {
  const sheetText = sheet.map((entry) => `${entry.name}: ${entry.note}`).join('\n');
  return loreForTurn(lorebook, { ...texts, sheet: sheetText }, estimateTokens);
}

/** The lorebook entries the opening is told: those marked always (at most three). */
export const loreAtOpening = (lorebook: readonly LoreEntry[]): ToldLoreEntry[] =>
  loreForOpening(lorebook, estimateTokens);

/** Of the context budget, the share the newest summaries take whole; the rest is gists. */
const WHOLE_SHARE = 0.7;

/** The newest summaries carried whole, at the most; older ones as their gist. */
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

/** One line of the story context: a summary as the model is told it. */
export interface ContextEntry {
  text: string;
  /** Told as its gist, not whole. */
  shortened: boolean;
}

/** What a context line costs: its text and its bullet and line break. */
const lineCost = (text: string) => estimateTokens(text) + 2;

/**
 * The story context every prompt carries, oldest first, within `budget` tokens (estimated):
 * the newest summaries whole while they take at most 70% of it (8 at the most), then older
 * ones as their gist until it is spent. So a turn's prompt stays the same size however long
 * the story runs, and the model still sees the story's last turns.
 */
export function storyContext(
  summaries: readonly string[],
  budget: number = STORY_CONTEXT_TOKEN_BUDGET,
): ContextEntry[] {
  const entries: ContextEntry[] = [];
  let spent = 0;
  let whole = true;
  for (let index = summaries.length - 1; index >= 0; index -= 1) {
    const summary = summaries[index] as string;
    const cost = lineCost(summary);
    whole &&= entries.length < WHOLE_SUMMARIES && spent + cost <= budget * WHOLE_SHARE;
    const entry = whole ? { text: summary, shortened: false } : shortEntry(summary);
    const entryCost = whole ? cost : lineCost(entry.text);
    if (spent + entryCost > budget) break;
    spent += entryCost;
    entries.unshift(entry);
  }
  return entries;
}

const shortEntry = (summary: string): ContextEntry => {
  const gist = summaryGist(summary);
  return { text: gist, shortened: gist !== summary.trim() };
};

/** A prompt's story context: the summaries so far, and a smaller budget after a 413. */
export interface StoryContextInput {
  /** Every summary so far, oldest first; the prompt keeps what its budget allows. */
  summaries: readonly string[];
  /** At most this many tokens for the context (STORY_CONTEXT_TOKEN_BUDGET when absent). */
  contextBudget?: number;
  /**
   * The player's pinned note, told with the story in every prompt that has it. It
   * is part of the prompt, so the context fits in what is left of PROMPT_TOKEN_BUDGET.
   */
  note?: string;
  /** The story sheet's entries to tell (sheetTold), in the order told; none when absent. */
  sheet?: readonly SheetEntry[];
  /** The player's lorebook entries to tell (loreTold), in the order told; none when absent. */
  lore?: readonly ToldLoreEntry[];
}

/**
 * Builds a prompt with as much story context as fits: within the context's own budget, and
 * within what the whole prompt (the system message too) may take.
 */
export function fitStoryContext(
  prompt: ContextPrompt,
  input: StoryContextInput,
  systemPrompt: string,
): string {
  return prompt(contextTold(prompt, input, systemPrompt));
}

/** A prompt with its story context left to fill in. */
export type ContextPrompt = (context: readonly ContextEntry[]) => string;

/** The story context fitStoryContext puts in this prompt: what the model is told of the past. */
export function contextTold(
  prompt: ContextPrompt,
  { summaries, contextBudget = STORY_CONTEXT_TOKEN_BUDGET }: StoryContextInput,
  systemPrompt: string,
): ContextEntry[] {
  const fixed = estimateTokens(systemPrompt) + estimateTokens(prompt([]));
  const budget = Math.max(0, Math.min(contextBudget, PROMPT_TOKEN_BUDGET - fixed));
  return storyContext(summaries, budget);
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
  /** The lorebook entries marked always (loreAtOpening), the world set up before the first word. */
  lore?: readonly ToldLoreEntry[];
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
export interface TurnInput extends StoryContextInput {
  character: CharacterSketch;
  genre: string;
  previousParagraph: string;
  /** The option taken; a typed choice is medium risk, neutral, with no trait alignment. */
  choice: StoryOption;
  outcome: Outcome;
  scenarioType: ScenarioType;
  /** This turn's number: the first choice is turn 1 (SPEC.md section 4). */
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

export interface RecapInput extends StoryContextInput {
  character: CharacterSketch;
  genre: string;
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
  // The summaries ride in the story replies (DESIGN.md: one request per turn); the separate
  // summary prompts are only the fallback when a reply leaves them out.
  // sheetChanges may be left out or empty (engine/storySheet.ts): never asked for again.
  openingScene: ['storyStart', 'options', 'newStorySummary', 'sheetChanges'],
  openingSummary: ['newStorySummary'],
  nextSegment: [
    'storySegment',
    'options',
    'storySummary',
    'outcome',
    'scenarioType',
    'sheetChanges',
  ],
  conclusionCheck: ['storySegment', 'options', 'isFinal', 'storySummary', 'sheetChanges'],
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

/** The two prompts a turn is asked with: before turn 7, and from it (SPEC.md section 4). */
export type TurnUse = 'nextSegment' | 'conclusionCheck';

/** One language's prompts: each builder returns the user message for its use. */
export interface PromptBuilders {
  /**
   * What a turn's prompt would tell the model of the past, for the 'Story so far' panel: the
   * same entries the prompt itself carries.
   */
  contextOfTurn(use: TurnUse, input: TurnInput): ContextEntry[];
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

/**
 * The one reader of a stored or imported story (SPEC.md section 3, "Saved story"): resume,
 * IndexedDB reads, JSON import and export all take a story through `parseStory`. It reads every
 * record saved by earlier versions; anything malformed falls back to the start value, and only
 * a value with no story in it at all is refused. Pure: no I/O.
 */
import { isRecord } from '../../../engine/guards';
import { checkedLorebook } from '../../../engine/loreEntries';
import { normalizeOptions } from '../../../engine/options';
import { playerStatsInRange } from '../../../engine/stats';
import { readSheetEntries } from '../../../engine/sheetReading';
import { storyCostOf } from '../cost/storyCost';
import {
  INITIAL_PLAYER_STATS,
  INITIAL_SCORE_BREAKDOWN,
  SCENARIO_TYPES,
  type Alignment,
  type Outcome,
  type PlayerStats,
  type ScenarioType,
  type ScoreBreakdown,
  type StoryOption,
} from '../../../engine/types';
import {
  MAX_REWRITES_PER_TURN,
  STORY_NOTE_MAX_CHARS,
  type Recap,
  type ResolvedChoice,
  type Story,
  type StorySheet,
  type StoryEntry,
} from '../gameModel';
import { portraitNumber } from '../portraits';

/** Why a value is not a story: not an object, or no paragraph to take the story up from. */
export type StoryProblem = { reason: 'notAnObject' } | { reason: 'noParagraph' };

export const isStoryProblem = (value: Story | StoryProblem): value is StoryProblem =>
  'reason' in value;

// ---- Reading a stored game back: anything malformed falls back to the start value ----

type Guard<T> = (value: unknown) => value is T;

const isString: Guard<string> = (value): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const oneOf =
  <T extends string>(values: readonly T[]): Guard<T> =>
  (value): value is T =>
    values.includes(value as T);

const isAlignment = oneOf<Alignment>(['moral', 'immoral', 'neutral']);
const isOutcome = oneOf<Outcome>(['success', 'partial', 'failure']);
const isScenarioType = oneOf<ScenarioType>(SCENARIO_TYPES);

function listOf<T>(value: unknown, guard: Guard<T>): T[] {
  return Array.isArray(value) ? value.filter(guard) : [];
}

const isStoryEntry: Guard<StoryEntry> = (value): value is StoryEntry =>
  isRecord(value) &&
  isString(value.text) &&
  (value.edited === undefined || typeof value.edited === 'boolean') &&
  (value.kind === 'paragraph' ||
    (value.kind === 'choice' &&
      typeof value.freeText === 'boolean' &&
      (value.outcome === null || isOutcome(value.outcome))));

const isRisk = oneOf<StoryOption['risk']>(['low', 'medium', 'high']);

const isStoryOption: Guard<StoryOption> = (value): value is StoryOption =>
  isRecord(value) &&
  isString(value.text) &&
  isRisk(value.risk) &&
  isAlignment(value.alignment) &&
  isString(value.traitAlignment);

/** The latest choice and its roll, when it is this story's current turn's; else null. */
function lastChoiceOf(value: unknown, turnCount: number): ResolvedChoice | null {
  if (!isRecord(value) || value.turn !== turnCount || turnCount === 0) return null;
  const { option, freeText, outcome, scenarioType, outcomesSoFar } = value;
  if (!isStoryOption(option) || typeof freeText !== 'boolean' || !isOutcome(outcome)) return null;
  if (!isScenarioType(scenarioType)) return null;
  return {
    turn: turnCount,
    option: { ...option },
    freeText,
    outcome,
    scenarioType,
    outcomesSoFar: listOf(outcomesSoFar, isOutcome),
  };
}

const RECAP_TEXTS = [
  'wrapUpParagraph',
  'bigMoment',
  'frequentActivity',
  'characterTraitHighlight',
  'themeExploration',
  'endingType',
] as const;

function recapOf(value: unknown): Recap | null {
  if (!isRecord(value) || !RECAP_TEXTS.every((field) => isString(value[field]))) return null;
  if (typeof value.overallScore !== 'number') return null;
  return value as unknown as Recap;
}

/** The story sheet, empty in a save from before it. */
function storySheetOf(value: unknown): StorySheet {
  if (!isRecord(value)) return { entries: [], beforeLatest: [] };
  return {
    entries: readSheetEntries(value.entries),
    beforeLatest: readSheetEntries(value.beforeLatest),
  };
}

function numbersLike<T extends object>(start: T, value: unknown): T {
  if (!isRecord(value)) return start;
  const entries = Object.entries(start).map(([key, initial]) => {
    const stored = value[key];
    return [key, typeof stored === 'number' && Number.isFinite(stored) ? stored : initial];
  });
  return Object.fromEntries(entries) as T;
}

/**
 * A stored story as the game takes it up, or the problem when it holds no story at all. Older
 * records kept the portrait as `characterImage`, the options as a map, and no story log: the log
 * is made of their last paragraph. A stopped turn is not read from the record: where a story is
 * taken up follows from the story itself (turn/turnRules.ts, phaseOf).
 */
export function parseStory(value: unknown): Story | StoryProblem {
  if (!isRecord(value)) return { reason: 'notAnObject' };
  const previousParagraph = isString(value.previousParagraph) ? value.previousParagraph : '';
  if (previousParagraph.trim() === '') return { reason: 'noParagraph' };
  const storyLog = listOf(value.storyLog, isStoryEntry);
  const recap = recapOf(value.recap);
  const turnCount = isCount(value.turnCount) ? value.turnCount : 0;
  const lastChoice = lastChoiceOf(value.lastChoice, turnCount);
  const note = isString(value.storyNote) ? value.storyNote.trim() : '';
  return {
    chosenGenre: isString(value.chosenGenre) ? value.chosenGenre : '',
    chosenImage: portraitNumber(value.chosenImage) ?? portraitNumber(value.characterImage) ?? 1,
    chosenCharacter: isString(value.chosenCharacter) ? value.chosenCharacter : '',
    characterGender: isString(value.characterGender) ? value.characterGender : '',
    characterBio: isString(value.characterBio) ? value.characterBio : '',
    characterTraits: listOf(value.characterTraits, isString),
    characterFacialFeatures: listOf(value.characterFacialFeatures, isString),
    storyLog: storyLog.length > 0 ? storyLog : [{ kind: 'paragraph', text: previousParagraph }],
    previousParagraph,
    // As the model's options are read: older records kept them as a map, some fields missing.
    options: normalizeOptions(value.options),
    storySummary: listOf(value.storySummary, isString),
    storySheet: storySheetOf(value.storySheet),
    storyNote: note.slice(0, STORY_NOTE_MAX_CHARS),
    // Saved before the lorebook, or edited by hand: what is not an entry within the limits goes
    // (never a failed load).
    lorebook: checkedLorebook(value.lorebook),
    cost: storyCostOf(value.cost),
    illustrated: value.illustrated === true,
    // No more than the turns allowed (the leaderboard refuses more).
    rewrites: isCount(value.rewrites)
      ? Math.min(value.rewrites, MAX_REWRITES_PER_TURN * turnCount)
      : 0,
    turnRewrites: isCount(value.turnRewrites)
      ? Math.min(value.turnRewrites, MAX_REWRITES_PER_TURN)
      : 0,
    lastChoice,
    turnCount,
    // A story that ended before its recap was written is resumed where it can go on.
    isFinal: value.isFinal === true && recap !== null,
    scenarioHistory: listOf(value.scenarioHistory, isScenarioType),
    moralChoices: listOf(value.moralChoices, isAlignment),
    outcomes: listOf(value.outcomes, isOutcome),
    recap,
    // An edited or imported record's stats come back in range.
    playerStats: playerStatsInRange(
      numbersLike<PlayerStats>(INITIAL_PLAYER_STATS, value.playerStats),
    ),
    scoreBreakdown: numbersLike<ScoreBreakdown>(INITIAL_SCORE_BREAKDOWN, value.scoreBreakdown),
    finalScore: typeof value.finalScore === 'number' ? value.finalScore : null,
  };
}

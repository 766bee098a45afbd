// A game as the stories feature saves it and gives it back (SPEC.md section 3 "Saved story":
// "plus the rest of the game state"; section 4: loading a saved story resumes it). Pure data and
// guards: no I/O. The session's fields (API key, waits, errors, streaming text) are never part of it.
import { isRecord } from '../../engine/guards';
import { normalizeOptions } from '../../engine/options';
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
} from '../../engine/types';
import {
  MAX_REWRITES_PER_TURN,
  STORY_FIELDS,
  STORY_NOTE_MAX_CHARS,
  type GameState,
  type PlayerStatsState,
  type Recap,
  type ResolvedChoice,
  type ResumableGame,
  type StoryEntry,
} from './gameModel';
import { isTurnUnwritten } from './gameSlice';
import { portraitNumber } from './portraits';

export { STORY_FIELDS, type ResumableGame } from './gameModel';

/**
 * Whether the game is at a point it can be resumed from: the story start is set, or a turn is
 * complete and nothing is being written, or the story has ended with its recap. A turn whose
 * choice is rolled but not yet written (under way, failed, or stopped) is kept too, so that a
 * reload never rolls it again (issue 22): it comes back to be tried or written again. The
 * moment between the roll and the scenario, and a final segment waiting for its recap, are not.
 */
export function isResumable(game: GameState): boolean {
  if (game.stage === 'endingScreen') return game.recap !== null;
  if (game.stage === 'loading') return game.storyLog.length > 0 && game.options.length > 0;
  if (isTurnUnwritten(game)) return true;
  return game.stage === 'playing' && !game.isLoading && game.error === null;
}

export const selectIsResumable = (state: { game: GameState }): boolean => isResumable(state.game);

export function selectResumableGame(state: {
  game: GameState;
  playerStats: PlayerStatsState;
}): ResumableGame {
  const story = Object.fromEntries(STORY_FIELDS.map((field) => [field, state.game[field]]));
  return { ...(story as Pick<GameState, (typeof STORY_FIELDS)[number]>), ...state.playerStats };
}

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

function numbersLike<T extends object>(start: T, value: unknown): T {
  if (!isRecord(value)) return start;
  const entries = Object.entries(start).map(([key, initial]) => {
    const stored = value[key];
    return [key, typeof stored === 'number' && Number.isFinite(stored) ? stored : initial];
  });
  return Object.fromEntries(entries) as T;
}

/**
 * A stored game as the game can resume it, or null when it holds no story at all (no paragraph).
 * Older records without a story log get one made of their last paragraph.
 */
export function restoreGame(value: unknown): ResumableGame | null {
  if (!isRecord(value) || !isString(value.previousParagraph)) return null;
  const previousParagraph = value.previousParagraph;
  if (previousParagraph.trim() === '') return null;
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
    storyNote: note.slice(0, STORY_NOTE_MAX_CHARS),
    // No more than the turns allowed (the leaderboard refuses more).
    rewrites: isCount(value.rewrites)
      ? Math.min(value.rewrites, MAX_REWRITES_PER_TURN * turnCount)
      : 0,
    turnRewrites: isCount(value.turnRewrites)
      ? Math.min(value.turnRewrites, MAX_REWRITES_PER_TURN)
      : 0,
    // A stopped turn goes on by being written again: it needs its choice and roll.
    turnStopped:
      value.turnStopped === true && lastChoice !== null && storyLog.at(-1)?.kind === 'choice',
    lastChoice,
    turnCount,
    // A story that ended before its recap was written is resumed where it can go on.
    isFinal: value.isFinal === true && recap !== null,
    scenarioHistory: listOf(value.scenarioHistory, isScenarioType),
    moralChoices: listOf(value.moralChoices, isAlignment),
    outcomes: listOf(value.outcomes, isOutcome),
    recap,
    playerStats: numbersLike<PlayerStats>(INITIAL_PLAYER_STATS, value.playerStats),
    scoreBreakdown: numbersLike<ScoreBreakdown>(INITIAL_SCORE_BREAKDOWN, value.scoreBreakdown),
    finalScore: typeof value.finalScore === 'number' ? value.finalScore : null,
  };
}

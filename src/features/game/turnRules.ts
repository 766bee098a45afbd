/**
 * What each phase of the turn allows (SPEC.md section 4, Game flow): the checks the slice
 * guards its events with and the views and flows ask, read from the phase and the story. Pure:
 * no store, no I/O.
 */
import { INITIAL_PLAYER_STATS, INITIAL_SCORE_BREAKDOWN } from '../../engine/types';
import {
  MAX_REWRITES_PER_TURN,
  type GameStage,
  type GameState,
  type Phase,
  type Story,
  type Turn,
} from './gameModel';

/** A story before anything is chosen. */
export const initialStory: Story = {
  chosenGenre: '',
  chosenImage: 1,
  chosenCharacter: '',
  characterGender: '',
  characterBio: '',
  characterTraits: [],
  characterFacialFeatures: [],
  storyLog: [],
  previousParagraph: '',
  options: [],
  storySummary: [],
  storyNote: '',
  rewrites: 0,
  turnRewrites: 0,
  lastChoice: null,
  turnCount: 0,
  isFinal: false,
  scenarioHistory: [],
  moralChoices: [],
  outcomes: [],
  recap: null,
  playerStats: INITIAL_PLAYER_STATS,
  scoreBreakdown: INITIAL_SCORE_BREAKDOWN,
  finalScore: null,
};

/** The phases of a story being played, from its first choices to its recap. */
export const PLAYING_PHASES = [
  'choosing',
  'writing',
  'stopped',
  'failed',
  'concluding',
] as const satisfies Phase[];

/** The screen each phase is shown on (SPEC.md section 4: one /game view per stage). */
const STAGE_OF: Record<Phase, GameStage> = {
  keyNeeded: 'apiKeyInput',
  home: 'loadOrCreate',
  choosingGenre: 'genreSelection',
  choosingPortrait: 'characterImageSelection',
  naming: 'characterSelection',
  opening: 'loading',
  openingFailed: 'loading',
  choosing: 'playing',
  writing: 'playing',
  stopped: 'playing',
  failed: 'playing',
  concluding: 'playing',
  ended: 'endingScreen',
};

export const stageOf = (turn: Turn): GameStage => STAGE_OF[turn.phase];

/** The current turn's choice is rolled and resolved, and its segment is not in the story yet. */
export function isTurnUnwritten(story: Story): boolean {
  return (
    story.lastChoice !== null &&
    story.lastChoice.turn === story.turnCount &&
    story.storyLog.at(-1)?.kind === 'choice'
  );
}

/**
 * Where a saved story is taken up again: the ending for a finished one; a turn saved before its
 * segment came (stopped, left mid-turn, or failed) keeps its roll and comes back stopped, since
 * writing it is a rewrite, as after a Stop (leaving mid-paragraph previews nothing for free);
 * with no rewrite left, Try again goes on with it. Else the story's choices.
 */
export function phaseOf(story: Story): Turn {
  if (story.isFinal && story.recap) return { phase: 'ended' };
  if (isTurnUnwritten(story)) {
    return story.turnRewrites < MAX_REWRITES_PER_TURN
      ? { phase: 'stopped' }
      : { phase: 'failed', problem: null };
  }
  return { phase: 'choosing' };
}

/** A story has begun and not ended: its opening is being written, or it is being played. */
export function isStoryUnderWay({ turn }: Pick<GameState, 'turn'>): boolean {
  return stageOf(turn) === 'loading' || stageOf(turn) === 'playing';
}

/** Whether a choice may be made now: the options are the player's. */
export const canChoose = ({ turn }: Pick<GameState, 'turn'>) => turn.phase === 'choosing';

/** Whether Stop applies: the opening until its scene is in, or a turn's segment being written. */
export function canStop({ turn, story }: Pick<GameState, 'turn' | 'story'>): boolean {
  if (turn.phase === 'opening') return story.storyLog.length === 0;
  return (
    turn.phase === 'writing' && isTurnUnwritten(story) && story.turnRewrites < MAX_REWRITES_PER_TURN
  );
}

/** Whether the current turn may be written again: its segment is in, or it was stopped. */
export function canRewrite({ turn, story }: Pick<GameState, 'turn' | 'story'>): boolean {
  if (story.turnRewrites >= MAX_REWRITES_PER_TURN) return false;
  if (turn.phase === 'stopped') return isTurnUnwritten(story);
  return (
    turn.phase === 'choosing' &&
    story.lastChoice?.turn === story.turnCount &&
    story.storyLog.at(-1)?.kind === 'paragraph'
  );
}

/** Whether the latest paragraph, and the player's typed action, may be edited now. */
export const canEdit = ({ turn }: Pick<GameState, 'turn'>) =>
  turn.phase === 'choosing' || turn.phase === 'stopped';

/** The choice of the current turn in the log: last after a Stop, else before its paragraph. */
export function latestChoice(story: Story) {
  const log = story.storyLog;
  const entry = log.at(-1)?.kind === 'choice' ? log.at(-1) : log.at(-2);
  return entry?.kind === 'choice' ? entry : undefined;
}

/**
 * Whether the game is at a point it can be saved and resumed from: a turn whose choices are
 * offered, or whose choice is rolled but not yet written (under way, failed, or stopped, so a
 * reload never rolls it again), an opening whose scene is in, or an ended story. The moment
 * between the roll and the scenario, and a final segment waiting for its recap, are not.
 */
export function isResumable({ turn, story }: Pick<GameState, 'turn' | 'story'>): boolean {
  switch (turn.phase) {
    case 'ended':
    case 'choosing':
      return true;
    case 'opening':
      return story.storyLog.length > 0 && story.options.length > 0;
    case 'writing':
    case 'stopped':
    case 'failed':
      return isTurnUnwritten(story);
    default:
      return false;
  }
}

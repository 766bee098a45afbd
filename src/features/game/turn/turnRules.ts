/**
 * What each phase of the turn allows (SPEC.md section 4, Game flow): the checks the slice
 * guards its events with, read from the phase and the story; what only the views and flows ask
 * is in gameSelectors.ts. Pure: no store, no I/O.
 */
import { INITIAL_PLAYER_STATS, INITIAL_SCORE_BREAKDOWN } from '../../../engine/types';
import { NO_COST } from '../cost/storyCost';
import {
  MAX_REWRITES_PER_TURN,
  type GameState,
  type Phase,
  type Story,
  type Turn,
} from '../gameModel';

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
  storySheet: { entries: [], beforeLatest: [] },
  storyNote: '',
  lorebook: [],
  cost: NO_COST,
  illustrated: false,
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
  return (
    turn.phase === 'opening' ||
    turn.phase === 'openingFailed' ||
    (PLAYING_PHASES as readonly Phase[]).includes(turn.phase)
  );
}

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

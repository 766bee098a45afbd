/**
 * What the views and the flows ask of the game, derived from the turn's phase and the story: the
 * screen it is on, whether a choice may be made, whether the story may be saved. Kept apart from
 * the slice's own checks (turnRules.ts), so the home screen's code carries none of it.
 */
import type { GameStage, GameState, Phase, Turn } from '../gameModel';
import { isTurnUnwritten } from './turnRules';

type WithGame = { game: GameState };

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

/** Whether a choice may be made now: the options are the player's. */
export const canChoose = ({ turn }: Pick<GameState, 'turn'>) => turn.phase === 'choosing';

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

/** The screen the game is on (SPEC.md section 4: one /game view per stage). */
export const selectGameStage = (state: WithGame): GameStage => stageOf(state.game.turn);

/** Whether the story may be saved now (isResumable). */
export const selectIsResumable = (state: WithGame): boolean => isResumable(state.game);

/** Selectors the views and other features read the game with, derived from the turn's phase. */
import type { GameStage, GameState } from './gameModel';
import { isResumable, stageOf } from './turnRules';

type WithGame = { game: GameState };

/** The screen the game is on (SPEC.md section 4: one /game view per stage). */
export const selectGameStage = (state: WithGame): GameStage => stageOf(state.game.turn);

/** Whether the story may be saved now (turnRules.ts, isResumable). */
export const selectIsResumable = (state: WithGame): boolean => isResumable(state.game);

/**
 * How the game's events are written (gameSlice.ts, and the reducers of the story's parts that
 * it takes in): each names the phases it is heard in, and in any other it changes nothing
 * (DESIGN.md, where state lives).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { GameState, Phase } from '../gameModel';

/** An event's transitions, by the phase the game is in when it comes. */
export function inPhases<P = void>(
  cases: Partial<Record<Phase, (state: GameState, payload: P) => void | GameState>>,
) {
  return (state: GameState, action: PayloadAction<P>) =>
    cases[state.turn.phase]?.(state, action.payload);
}

/** The same transition in each of `phases`. */
export function each<P>(phases: readonly Phase[], apply: (state: GameState, payload: P) => void) {
  return Object.fromEntries(phases.map((phase) => [phase, apply])) as Partial<
    Record<Phase, (state: GameState, payload: P) => void>
  >;
}

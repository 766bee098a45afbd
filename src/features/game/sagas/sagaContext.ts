/**
 * The game's part of the saga context (DESIGN.md, where side effects live), and the reader its
 * flows use: the dice, the clock and where an accepted key is kept, with the language model's
 * part (the provider's client, the page's policy) that the flows call the model through.
 */
import type { Rng } from '../../../engine/types';
import { contextReader, type ClockContext } from '../../../shared/sagaContext';
import type { LlmContext } from '../../llm';

export interface GameContext extends ClockContext {
  /** The game's random source: every roll replays from a seeded one. */
  random: Rng;
  /** Where the accepted API key is kept in this browser (DESIGN.md: never sent elsewhere). */
  storage: Storage | null;
}

/** One value of the context the game's flows read, typed by its key. */
export const fromContext = contextReader<GameContext & LlmContext>();

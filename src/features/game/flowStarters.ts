/**
 * The game's flows by the events that start them, listed once: the home bundle's loader waits
 * for any of them; the flows' watchers (sagas/gameSaga.ts) run each flow's worker on its own.
 * The events that stop a story being written are the flows' (sagas/storyStops.ts).
 */
import { gameActions } from './gameSlice';

const {
  apiKeySubmitted,
  characterNamed,
  openingRetryRequested,
  choiceMade,
  turnRetryRequested,
  rewriteRequested,
  summaryMissing,
  paragraphEdited,
  choiceEdited,
} = gameActions;

/** SPEC.md section 4, Game flow: each flow and what starts it. */
export const FLOW_STARTERS = {
  keyCheck: [apiKeySubmitted.type],
  opening: [characterNamed.type, openingRetryRequested.type],
  turn: [choiceMade.type],
  /** Try again and Write it again: the same choice and roll (or the recap), asked for again. */
  turnAgain: [turnRetryRequested.type, rewriteRequested.type],
  /** The latest segment's summary, written behind the options. */
  summary: [summaryMissing.type, paragraphEdited.type, choiceEdited.type],
} as const;

export type FlowName = keyof typeof FLOW_STARTERS;

/** Every event that starts a flow (a story opened from the list may go on with any of them). */
export const ANY_FLOW_STARTER = Object.values(FLOW_STARTERS).flat();

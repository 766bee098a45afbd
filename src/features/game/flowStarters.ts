/**
 * The game's flows by the events that start them, and the events that stop a story being
 * written: each listed once. The home bundle's loader waits for any starter; the flows'
 * watchers (sagas/gameSaga.ts) run each flow's worker on its starters.
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
  waitCancelled,
  writingStopped,
  returnedHome,
  newGameStarted,
  savedStoryResumed,
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
export const ANY_FLOW_STARTER = [...new Set(Object.values(FLOW_STARTERS).flat())];

/** The player leaves the story: what was written for it is no longer wanted. */
export const LEAVING_THE_STORY = [returnedHome.type, newGameStarted.type, savedStoryResumed.type];

/** Cancel on the overlay, Stop, and leaving: the opening or a turn being written stops. */
export const STOPPING_THE_STORY = [waitCancelled.type, writingStopped.type, ...LEAVING_THE_STORY];

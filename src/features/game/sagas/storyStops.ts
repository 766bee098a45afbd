/** When the player stops the story being written, or leaves it: the flows race these. */
import { select, take } from 'typed-redux-saga';
import { gameActions } from '../gameSlice';
import { selectState } from './flowState';

const { waitCancelled, writingStopped, returnedHome, newGameStarted, savedStoryResumed } =
  gameActions;

/** The player leaves the story: what was written for it is no longer wanted. */
export const LEAVING_THE_STORY = [returnedHome.type, newGameStarted.type, savedStoryResumed.type];

/** Cancel on the overlay, Stop, and leaving: the opening or a turn being written stops. */
export const STOPPING_THE_STORY = [waitCancelled.type, writingStopped.type, ...LEAVING_THE_STORY];

/**
 * Until the player stops the story (STOPPING_THE_STORY). A Stop counts only if the slice took
 * it: one pressed as the segment came in, or while the recap is written, changes nothing and
 * stops nothing.
 */
export function* storyStopped() {
  while (true) {
    const action = yield* take(STOPPING_THE_STORY);
    if (!gameActions.writingStopped.match(action)) return;
    const { turn } = (yield* select(selectState)).game;
    if (turn.phase === 'stopped' || turn.phase === 'naming') return;
  }
}

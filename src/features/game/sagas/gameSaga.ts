/**
 * The game's flows (SPEC.md section 4, Game flow), one worker each, and the watchers that run
 * them: the key check (keyCheck.ts), opening generation (opening.ts), a turn and, from turn 7,
 * the conclusion check (turn.ts), the summary written behind the options when a reply left it
 * out (summaries.ts), and the recap with the ending score (recap.ts). Every request goes
 * through askModel.ts (streaming, the 429 backoff). Each worker takes the action that starts
 * it and returns when its flow ends, so a test runs one with expectSaga and no timeout.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { fork, takeLatest, takeLeading } from 'typed-redux-saga';
import { gameActions } from '../gameSlice';
import { checkKey } from './keyCheck';
import { openingGeneration } from './opening';
import { SUMMARY_WANTED, summaryFallback } from './summaries';
import { playTurn, retryTurn } from './turn';

/** The worker an action starts, if it starts one (for the first action, and for replays). */
export function flowFor(action: UnknownAction) {
  if (gameActions.apiKeySubmitted.match(action)) return () => checkKey(action);
  if (gameActions.characterNamed.match(action) || gameActions.openingRetryRequested.match(action))
    return () => openingGeneration(action);
  if (gameActions.choiceMade.match(action)) return () => playTurn(action);
  if (gameActions.turnRetryRequested.match(action) || gameActions.rewriteRequested.match(action))
    return () => retryTurn(action);
  if (
    gameActions.summaryMissing.match(action) ||
    gameActions.paragraphEdited.match(action) ||
    gameActions.choiceEdited.match(action)
  )
    return () => summaryFallback(action);
  return null;
}

/**
 * The game's watchers. `first` is the action that brought this code in (the loader in the home
 * bundle waits for it), handled before anything else.
 */
export function* gameSaga(first?: UnknownAction) {
  const firstFlow = first && flowFor(first);
  if (firstFlow) yield* fork(firstFlow);
  yield* takeLeading(gameActions.apiKeySubmitted, checkKey);
  // A restart cancels a stale opening (takeLatest); a double click is one turn (takeLeading).
  yield* takeLatest(
    [gameActions.characterNamed.type, gameActions.openingRetryRequested.type],
    openingGeneration,
  );
  yield* takeLeading(gameActions.choiceMade, playTurn);
  yield* takeLeading(
    [gameActions.turnRetryRequested.type, gameActions.rewriteRequested.type],
    retryTurn,
  );
  // An edit while a summary is written makes that one stale: the latest edit's is written.
  yield* takeLatest(SUMMARY_WANTED, summaryFallback);
}

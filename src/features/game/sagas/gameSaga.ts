/**
 * The game's flows (SPEC.md section 4, Game flow), one worker each, and the watchers that run
 * them: the key check (keyCheck.ts), opening generation (opening.ts), a turn (turn.ts) and,
 * when the model ends the story, its conclusion (conclusion.ts: the recap and the score), and
 * the summary written behind the options when a reply left it out (summaries.ts). Every request
 * goes through askModel.ts (streaming, the 429 backoff). Each worker takes the action that
 * starts it and returns when its flow ends, so a test runs one with expectSaga and no timeout.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { fork, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { FLOW_STARTERS, type FlowName } from '../flowStarters';
import { gameActions } from '../gameSlice';
import { startWithGenreLorebook } from '../lorebook/genreLorebook';
import { checkKey } from './keyCheck';
import { openingGeneration } from './opening';
import { summaryFallback } from './summaries';
import { playTurn, retryTurn } from './turn';

type Worker = (action: never) => Generator;

/**
 * Each flow's worker (under the failure policy, failurePolicy.ts), and how its watcher takes
 * its starters.
 */
const FLOWS: Record<FlowName, { worker: Worker; latest?: true }> = {
  keyCheck: { worker: checkKey },
  // A restart cancels a stale opening; the latest edit's summary is the one written.
  opening: { worker: openingGeneration, latest: true },
  // A double click is one turn.
  turn: { worker: playTurn },
  turnAgain: { worker: retryTurn },
  summary: { worker: summaryFallback, latest: true },
};

/** The flow an action starts (for the first action, and for replays), or null. */
export function flowFor(action: UnknownAction) {
  const flow = (Object.keys(FLOWS) as FlowName[]).find((name) =>
    (FLOW_STARTERS[name] as readonly string[]).includes(action.type),
  );
  if (!flow) return null;
  const worker = FLOWS[flow].worker as (action: UnknownAction) => Generator;
  return () => worker(action);
}

/**
 * The game's watchers. `first` is the action that brought this code in (the loader in the home
 * bundle waits for it), handled before anything else.
 */
export function* gameSaga(first?: UnknownAction) {
  const firstFlow = first && flowFor(first);
  if (firstFlow) yield* fork(firstFlow);
  for (const [name, { worker, latest }] of Object.entries(FLOWS)) {
    const take = latest ? takeLatest : takeLeading;
    const starters = [...FLOW_STARTERS[name as FlowName]];
    yield* take(starters, worker as (action: UnknownAction) => Generator);
  }
  // Not a flow of the model's: a genre's kept lorebook, copied into the new story.
  yield* takeEvery(gameActions.genreChosen, startWithGenreLorebook);
}

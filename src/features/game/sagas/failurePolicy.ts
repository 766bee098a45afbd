/**
 * The failure policy, one for every game flow (DESIGN.md: errors say what happened): a flow
 * that throws (a provider's error, or a model client's bug) fails what it was doing with a
 * problem the player can read, in the interface language, and a way to try again (Try again
 * for the story, the key form for the key check); an error no provider explains is logged
 * once; every other flow keeps running, since the throw never reaches the watchers. A request
 * the player stopped ends quietly.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { call, put } from 'typed-redux-saga';
import { isAbortError } from '../../llm';
import { gameActions, type Problem } from '../gameSlice';
import { problemWith } from './problems';

/** How a flow's failure is told: the story's turn (or opening) fails. */
const storyFailed = (problem: Problem): UnknownAction => gameActions.turnFailed(problem);

/**
 * `worker` under the failure policy, its failure told by `failed`: the exported workers are
 * policed, so a replay sees the policy too.
 */
export function policed<A extends UnknownAction>(
  worker: (action: A) => Generator,
  failed: (problem: Problem) => UnknownAction = storyFailed,
) {
  return function* underPolicy(action: A) {
    try {
      yield* call(worker, action);
    } catch (error) {
      if (isAbortError(error)) return;
      const problem = yield* call(problemWith, error);
      // A provider's answer is the player's to read; anything else is a bug, logged once.
      if (problem.reason === 'unexpected') {
        console.error(`The game's flow for ${action.type} failed:`, error);
      }
      yield* put(failed(problem));
    }
  };
}

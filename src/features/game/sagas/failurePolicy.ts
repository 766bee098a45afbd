/**
 * The game's flows under the failure policy (src/shared/failurePolicy.ts): a flow that throws
 * (a provider's error, or a model client's bug) fails what it was doing with a problem the
 * player can read, in the interface language, and a way to try again (Try again for the story,
 * the key form for the key check); an error no provider explains is logged once; every other
 * flow keeps running. A request the player stopped ends quietly.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { call } from 'typed-redux-saga';
import { policed as underFailurePolicy, unexpected } from '../../../shared/failurePolicy';
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
  return underFailurePolicy(
    worker,
    function* toldAs(error: unknown) {
      const problem = yield* call(problemWith, error);
      // A provider's answer is the player's to read; anything else is a bug, logged once.
      return problem.reason === 'unexpected' ? unexpected(failed(problem)) : failed(problem);
    },
    { endsQuietly: isAbortError },
  );
}

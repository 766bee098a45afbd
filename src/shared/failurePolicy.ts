/**
 * One failure policy for every flow (DESIGN.md, "State and side effects": every worker runs
 * inside one wrapper; a throw becomes a failure the player can read and try again, and the other
 * flows go on). A feature wraps each worker once, with its flow's failure mapper, and exports it
 * wrapped, so a replay of the worker (expectSaga) meets the policy as the app does.
 *
 * The policy knows no feature: what a failure is called, and which errors end a flow quietly,
 * are the flow's to say. What it guarantees is the same everywhere: no throw reaches a watcher,
 * so no flow dies with one worker; every failure is told; a bug is logged once, naming the
 * worker and the action that started it.
 */
import { isAction, type UnknownAction } from '@reduxjs/toolkit';
import { call, put } from 'typed-redux-saga';

/** A failure nothing explains (a bug): told to the player by its event, and logged. */
export interface Unexpected {
  unexpected: UnknownAction;
}

/** `event` tells the player; the error behind it is a bug, logged for a developer. */
export const unexpected = (event: UnknownAction): Unexpected => ({ unexpected: event });

/** How a failure is told: the flow's failure event, or `unexpected(event)` for a bug. */
export type Told = UnknownAction | Unexpected;

/**
 * A flow's failure mapper: from what was thrown to how the player is told, at once or by a
 * saga (one that reads the store or the context, or tidies up what the flow left behind).
 */
// The saga's next values are the effects' results: anything.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FailureMapper = (error: unknown) => Told | Generator<unknown, Told, any>;

export interface PolicyOptions {
  /** What ends the flow quietly, telling no one: a request the player stopped. */
  endsQuietly?: (error: unknown) => boolean;
}

const isUnexpected = (told: Told): told is Unexpected => 'unexpected' in told;

/** The worker, and the action that started it when it was one, as a log names them. */
function flowName(worker: { name: string }, args: unknown[]): string {
  const [started] = args;
  return isAction(started) ? `${worker.name} (${started.type})` : worker.name;
}

/**
 * `worker` under the failure policy: a throw is told by `failed` (and logged when it says the
 * error is unexpected), or ends quietly when `endsQuietly` says so. Returns what the worker
 * returned, or undefined when it failed.
 */
export function policed<Args extends unknown[], Result>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  worker: (...args: Args) => Generator<unknown, Result, any>,
  failed: FailureMapper,
  { endsQuietly = () => false }: PolicyOptions = {},
) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return function* underPolicy(...args: Args): Generator<unknown, Result | undefined, any> {
    try {
      return (yield* call(worker, ...args)) as Result;
    } catch (error) {
      if (endsQuietly(error)) return undefined;
      try {
        const told = (yield* call(failed, error)) as Told;
        if (isUnexpected(told)) console.error(`${flowName(worker, args)} failed:`, error);
        yield* put(isUnexpected(told) ? told.unexpected : told);
      } catch (untold) {
        // The mapper broke too: nothing can be told, but the watcher still must not hear it.
        console.error(`${flowName(worker, args)} failed, and so did telling it:`, error, untold);
      }
      return undefined;
    }
  };
}

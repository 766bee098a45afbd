/**
 * What the player is told when asking the model fails (what happened, never a guess):
 * the error becomes a Problem, whose reason the catalogues word in the interface language and
 * which quotes the provider's own message.
 */
import { call, select } from 'typed-redux-saga';
import {
  DailyLimitError,
  NoCreditError,
  ProviderError,
  ProviderLimitError,
  ProviderUnreachableError,
  ReplyCutOffError,
  RequestTooLargeError,
  modelOf,
  providerById,
  type ProviderPreset,
} from '../../llm';
import type { Problem } from '../gameSlice';
import { RetriesExhaustedError } from './askModel';
import { selectState } from './flowState';
import { fromContext } from './sagaContext';

export interface ProblemContext {
  provider: ProviderPreset;
  model: string;
  /** Now, for when a daily limit resets (ms since the epoch). */
  now: number;
}

/** The limits that stop the game, and how each is told. */
function limitProblem(error: ProviderLimitError, now: number): Partial<Problem> | null {
  const said = {
    providerMessage: error.providerMessage,
    status: error.status,
    limitMetric: error.metric,
  };
  if (error instanceof DailyLimitError) {
    const resetsAt = error.resetsInMs === null ? null : now + error.resetsInMs;
    return { ...said, reason: 'dailyLimit', resetsAt };
  }
  if (error instanceof NoCreditError) return { ...said, reason: 'noCredit' };
  if (error instanceof RequestTooLargeError) return { ...said, reason: 'requestTooLarge' };
  return null;
}

/** The player runs this server themselves: a failure to reach it is most often CORS. */
const isOwnServer = (provider: ProviderPreset) => provider.editableBaseUrl;

export function problemOf(error: unknown, { provider, model, now }: ProblemContext): Problem {
  const problem: Problem = {
    reason: 'unexpected',
    provider: provider.id,
    model: modelOf(provider, model),
    origin: null,
    ownServer: isOwnServer(provider),
    providerMessage: null,
    status: null,
    resetsAt: null,
    limitMetric: null,
  };
  const limited = error instanceof ProviderLimitError ? limitProblem(error, now) : null;
  if (limited) return { ...problem, ...limited };
  if (error instanceof RetriesExhaustedError) return { ...problem, reason: 'retriesExhausted' };
  if (error instanceof ReplyCutOffError) return { ...problem, reason: 'replyCutOff' };
  if (error instanceof ProviderUnreachableError) {
    return { ...problem, reason: 'providerUnreachable', origin: error.origin };
  }
  if (error instanceof KeyCheckTimeoutError) return { ...problem, reason: 'noAnswer' };
  if (error instanceof ProviderError) {
    const said = { providerMessage: error.message, status: error.status };
    if (error.isKeyRefused) return { ...problem, ...said, reason: 'invalidApiKey' };
    if (error.isModelUnavailable) return { ...problem, ...said, reason: 'modelUnavailable' };
    return { ...problem, ...said, reason: 'providerError' };
  }
  return problem;
}

/** The provider did not answer the key check in time. */
export class KeyCheckTimeoutError extends Error {
  constructor(seconds: number) {
    super(`The provider did not answer within ${seconds} s`);
    this.name = 'KeyCheckTimeoutError';
  }
}

/** The Local Network Access check (localNetwork.ts), downloaded the first time it is needed. */
const loadLocalNetworkCause = () =>
  import(/* webpackChunkName: "local-network" */ './localNetwork').then(
    (module) => module.withLocalNetworkCause,
    // Not downloaded (the network is down too): the problem as it was seen.
    () => null,
  );

/**
 * The cause of a failed request, for the player (DESIGN.md: errors in the interface language):
 * a server out of reach may be the browser's Local Network Access refusing, which is asked only
 * then, so a game that meets no such failure never downloads the check.
 */
export function* problemWith(error: unknown) {
  const { settings } = yield* select(selectState);
  const clock = yield* fromContext('clock');
  const provider = providerById(settings.provider);
  const problem = problemOf(error, { provider, model: settings.model, now: clock.now() });
  if (problem.reason !== 'providerUnreachable' || !(yield* fromContext('localNetwork'))) {
    return problem;
  }
  const withLocalNetworkCause = yield* call(loadLocalNetworkCause);
  return withLocalNetworkCause ? yield* call(withLocalNetworkCause, problem) : problem;
}

/**
 * What can go wrong when the game asks a provider, as errors the sagas tell apart. Messages are
 * for developers; the player sees catalogue messages chosen from these errors' kinds.
 */

import type { LimitKind, ProviderLimit } from './limits';

/** SPEC.md section 9: a 429 that names no wait waits 5 seconds (DESIGN.md: only then). */
export const DEFAULT_RETRY_AFTER_MS = 5000;

/**
 * The provider refused the request over one of its limits (HTTP 429, 413 or 402), with what
 * its answer said: the kind of limit, what it counts, and how long to wait.
 */
export abstract class ProviderLimitError extends Error {
  abstract readonly kind: LimitKind;
  readonly status: number;
  /** Whether the limit counts requests or tokens, when the answer says. */
  readonly metric: ProviderLimit['metric'];
  /** The provider's own words (never the key). */
  readonly providerMessage: string;
  /** The tokens a minute the key may spend, when the answer states it. */
  readonly tokensPerMinute: number | null;

  constructor(status: number, limit: ProviderLimit, providerMessage: string) {
    super(`The language-model provider refused the request (${status}): ${providerMessage}`);
    this.status = status;
    this.metric = limit.metric;
    this.providerMessage = providerMessage;
    this.tokensPerMinute = limit.tokensPerMinute ?? null;
  }
}

/** A per-minute limit (HTTP 429): try again after retryAfterMs. */
export class RateLimitedError extends ProviderLimitError {
  readonly kind = 'perMinute';
  readonly retryAfterMs: number;
  /** The answer named the wait; false when it is the spec's 5 s fallback. */
  readonly waitNamed: boolean;

  constructor(status: number, limit: ProviderLimit, providerMessage: string) {
    super(status, limit, providerMessage);
    this.name = 'RateLimitedError';
    this.waitNamed = limit.waitMs !== null;
    this.retryAfterMs = limit.waitMs ?? DEFAULT_RETRY_AFTER_MS;
  }
}

/** A daily limit (requests or tokens per day): no retry until it resets. */
export class DailyLimitError extends ProviderLimitError {
  readonly kind = 'daily';
  /** How long until it resets, when the answer says. */
  readonly resetsInMs: number | null;

  constructor(status: number, limit: ProviderLimit, providerMessage: string) {
    super(status, limit, providerMessage);
    this.name = 'DailyLimitError';
    this.resetsInMs = limit.waitMs;
  }
}

/** The key has no credit left (OpenAI's 429 insufficient_quota, a 402). */
export class NoCreditError extends ProviderLimitError {
  readonly kind = 'noCredit';

  constructor(status: number, limit: ProviderLimit, providerMessage: string) {
    super(status, limit, providerMessage);
    this.name = 'NoCreditError';
  }
}

/** One request is over the per-minute budget on its own (Groq's 413): a smaller one may fit. */
export class RequestTooLargeError extends ProviderLimitError {
  readonly kind = 'tooLarge';

  constructor(status: number, limit: ProviderLimit, providerMessage: string) {
    super(status, limit, providerMessage);
    this.name = 'RequestTooLargeError';
  }
}

const LIMIT_ERRORS = {
  perMinute: RateLimitedError,
  daily: DailyLimitError,
  noCredit: NoCreditError,
  tooLarge: RequestTooLargeError,
} as const;

/** The error for a limit the answer described. */
export function limitError(
  status: number,
  limit: ProviderLimit,
  providerMessage: string,
): ProviderLimitError {
  return new LIMIT_ERRORS[limit.kind](status, limit, providerMessage);
}

export interface ProviderErrorDetails {
  /** The provider's error code (OpenAI-style `error.code`), e.g. model_not_found. */
  code?: string | null;
  /** The request parameter the provider names (OpenAI-style `error.param`). */
  param?: string | null;
  /** What the model wrote when its JSON failed the provider's own check (Groq). */
  failedGeneration?: string | null;
  cause?: unknown;
}

/** The error codes and words with which providers say a model is not there (any more). */
const MODEL_GONE_CODES = new Set([
  'model_not_found',
  'model_decommissioned',
  'model_not_available',
]);
/**
 * The sentences, each naming the model right before its verdict, so that "this model does not
 * support response_format" is not read as the model being gone: Groq and OpenAI's "The model
 * `x` does not exist or you do not have access to it.", Groq's "has been decommissioned",
 * OpenRouter's "x is not a valid model ID", Together's "Unable to access model x", Ollama's
 * 'model "x" not found'.
 */
const MODEL_GONE_WORDS = [
  /\bmodel [`'"]?[^\s`'"]+[`'"]? (does not exist|has been decommissioned|is no longer (supported|available)|not found)/i,
  /\bis not a valid model id\b/i,
  /\bunable to access model\b/i,
];

/** Any other error status, with the provider's own message. */
export class ProviderError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly param: string | null;
  readonly failedGeneration: string | null;

  constructor(status: number, message: string, details: ProviderErrorDetails = {}) {
    super(message, { cause: details.cause });
    this.name = 'ProviderError';
    this.status = status;
    this.code = details.code ?? null;
    this.param = details.param ?? null;
    this.failedGeneration = details.failedGeneration ?? null;
  }

  /**
   * The provider's JSON mode refused what the model wrote (Groq's json_validate_failed): not a
   * failure of the request but an unreadable reply, read (or asked for again) like any other.
   */
  get isInvalidJsonReply(): boolean {
    return this.status === 400 && this.code === 'json_validate_failed';
  }

  /** The key was refused (SPEC.md section 8: 'Invalid API key'). */
  get isKeyRefused(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /** The model asked for is unknown or retired (Groq and OpenAI answer 404, OpenRouter 400). */
  get isModelUnavailable(): boolean {
    if (this.status !== 400 && this.status !== 404 && this.status !== 410) return false;
    if (this.code !== null && MODEL_GONE_CODES.has(this.code)) return true;
    return this.param === 'model' || MODEL_GONE_WORDS.some((words) => words.test(this.message));
  }
}

/**
 * The reply was cut off by its output limit (finish_reason 'length'): half a reply, never
 * stored. A reasoning model that thought too long leaves little or no answer.
 */
export class ReplyCutOffError extends Error {
  constructor(readonly partial: string) {
    super(`The model's reply was cut off by its output limit after ${partial.length} characters`);
    this.name = 'ReplyCutOffError';
  }
}

/** The request never got an answer: no network, a server that is down, or CORS refused it. */
export class ProviderUnreachableError extends Error {
  /** The address asked (no path, no key). */
  readonly origin: string;

  constructor(origin: string, options?: { cause?: unknown }) {
    super(`Could not reach ${origin}`, options);
    this.name = 'ProviderUnreachableError';
    this.origin = origin;
  }
}

/** The reply stopped before it was complete: the connection dropped mid-stream. */
export class StreamInterruptedError extends Error {
  /** The text that arrived before the break. */
  readonly partialText: string;

  constructor(partialText: string, options?: { cause?: unknown }) {
    super(
      `The language-model reply was interrupted after ${partialText.length} characters`,
      options,
    );
    this.name = 'StreamInterruptedError';
    this.partialText = partialText;
  }
}

/** True for the error a fetch (or a body read) rejects with when its signal is aborted. */
export function isAbortError(error: unknown): boolean {
  // By name, not instanceof: DOMException comes from another realm in some runtimes (jest).
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

/**
 * What a provider's refusal says about its limits (DESIGN.md, "Limits read from the answer"):
 * which limit was hit (per minute, per day, no credit, a request too large) and how long it
 * says to wait. The body is the surest source, since a browser can read it always; headers
 * such as Retry-After and x-ratelimit-reset-* only when the provider exposes them through CORS.
 *
 * The shapes read here, as providers send them:
 * - Groq: 429 {error: {message: "Rate limit reached for model `m` ... on tokens per minute (TPM):
 *   Limit 8000, Used 6234, Requested 2500. Please try again in 5.51s. ...", type: "tokens",
 *   code: "rate_limit_exceeded"}}; per day "(RPD)"/"(TPD)" with waits such as 1m26.4s or
 *   2h5m3s; 413 "Request too large for model ... please reduce your message size".
 * - OpenAI: the same sentences ("tokens per min (TPM)", "try again in 644ms"), 429
 *   "Request too large" for a request over the limit, and 429 `insufficient_quota` for a key
 *   without credit.
 * - OpenRouter: 402 for no credits; 429 "Rate limit exceeded: free-models-per-day" with the
 *   reset time (ms since the epoch) in error.metadata.headers['X-RateLimit-Reset'].
 */

export type LimitKind = 'perMinute' | 'daily' | 'noCredit' | 'tooLarge';

export interface ProviderLimit {
  kind: LimitKind;
  /** Whether the limit counts requests or tokens, when the answer says. */
  metric: 'requests' | 'tokens' | null;
  /** How long the answer says to wait, in ms; null when it names no wait. */
  waitMs: number | null;
  /** The tokens a minute the key may spend, when the answer states it ("(TPM): Limit 8000"). */
  tokensPerMinute?: number;
}

/** Reads response headers; a header the browser may not read is simply absent (null). */
export interface HeaderReader {
  get(name: string): string | null;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 0.000001,
};
const DURATION = /^(?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;

/**
 * A Go-style duration as providers write their waits ('7.66s', '1m26.4s', '2h5m3s', '20ms',
 * '6.780999999s'), in ms rounded up; null when the text is not one.
 */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!DURATION.test(trimmed)) return null;
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(DURATION_PART)) {
    ms += Number(amount) * (UNIT_MS[unit as string] ?? 0);
  }
  return Math.ceil(ms);
}

/** Retry-After: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** An X-RateLimit-Reset in ms since the epoch (OpenRouter), or in seconds; null otherwise. */
function untilReset(value: unknown, now: number): number | null {
  const number = Number(typeof value === 'string' ? value.trim() : value);
  if (!Number.isFinite(number) || number <= 0) return null;
  const at = number < 1e12 ? number * 1000 : number;
  return Math.max(0, Math.ceil(at - now));
}

/** Groq's "tokens per minute (TPM): Limit 8000", OpenAI's "tokens per min (TPM): Limit 30000". */
const MINUTE_TOKEN_LIMIT = /tokens per min(?:ute)?\s*\(TPM\)\s*:\s*Limit\s+(\d+)/i;

const positiveCount = (text: string | null | undefined): number | null => {
  const value = Number(text?.trim() || NaN);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
};

/**
 * The per-minute token budget an answer states: Groq and OpenAI send x-ratelimit-limit-tokens
 * (the minute's, console.groq.com/docs/rate-limits), readable in a browser only when exposed
 * through CORS (Groq exposes none). Null when it cannot be read.
 */
export function minuteTokenLimitOf(headers: HeaderReader): number | null {
  return positiveCount(headers.get('x-ratelimit-limit-tokens'));
}

const TRY_AGAIN_IN = /try again in\s+([0-9.hmsµun]+)/i;
const DAILY_WORDS = /per[ -]day|\((?:RPD|TPD)\)|daily/i;
const TOO_LARGE_WORDS = /request too large|reduce your message size/i;
const NO_CREDIT_CODES = new Set([
  'insufficient_quota',
  'insufficient_credits',
  'billing_not_active',
]);

interface LimitBody {
  message: string;
  code: string | null;
  type: string | null;
  /** OpenRouter passes the upstream's rate-limit headers in error.metadata.headers. */
  metadataHeaders: Record<string, unknown> | null;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

function limitBodyOf(body: unknown): LimitBody {
  const error = (body as { error?: unknown } | null)?.error;
  const fields =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const metadata = fields.metadata as { headers?: unknown } | undefined;
  return {
    message: text(fields.message) ?? text(error) ?? '',
    code: text(fields.code),
    type: text(fields.type),
    metadataHeaders:
      typeof metadata?.headers === 'object' && metadata.headers !== null
        ? (metadata.headers as Record<string, unknown>)
        : null,
  };
}

function metricOf({ message, type }: LimitBody): ProviderLimit['metric'] {
  if (type === 'tokens' || type === 'requests') return type;
  if (/\((?:TPM|TPD)\)|tokens per/i.test(message)) return 'tokens';
  if (/\((?:RPM|RPD)\)|requests per|free-models-per/i.test(message)) return 'requests';
  return null;
}

/** The wait the answer names: its words first, then what headers the browser can read. */
function waitOf(
  limit: LimitBody,
  metric: ProviderLimit['metric'],
  headers: HeaderReader,
  now: number,
): number | null {
  const said = TRY_AGAIN_IN.exec(limit.message)?.[1];
  const fromWords = said === undefined ? null : parseDuration(said.replace(/\.$/, ''));
  if (fromWords !== null) return fromWords;
  const fromMetadata = untilReset(limit.metadataHeaders?.['X-RateLimit-Reset'], now);
  if (fromMetadata !== null) return fromMetadata;
  const retryAfter = parseRetryAfter(headers.get('retry-after'), now);
  if (retryAfter !== null) return retryAfter;
  // Groq: the -requests header is the daily limit's, the -tokens one the minute's.
  const reset = (name: string) => parseDuration(headers.get(name) ?? '');
  const tokens = reset('x-ratelimit-reset-tokens');
  const requests = reset('x-ratelimit-reset-requests');
  if (metric === 'tokens' && tokens !== null) return tokens;
  if (metric === 'requests' && requests !== null) return requests;
  if (tokens !== null || requests !== null) return Math.max(tokens ?? 0, requests ?? 0);
  return untilReset(headers.get('x-ratelimit-reset'), now);
}

/**
 * The limit a refused request ran into, or null when the refusal is about something else.
 * `body` is the parsed error body (anything, when it was not JSON).
 */
export function limitOf(
  status: number,
  body: unknown,
  headers: HeaderReader,
  now: number,
): ProviderLimit | null {
  const limit = limitBodyOf(body);
  const metric = metricOf(limit);
  const noCredit =
    status === 402 ||
    NO_CREDIT_CODES.has(limit.code ?? '') ||
    NO_CREDIT_CODES.has(limit.type ?? '');
  if (noCredit) return { kind: 'noCredit', metric: null, waitMs: null };
  // Groq's and OpenAI's refusals over the minute's tokens say how many the minute has (their
  // 429, and Groq's 413 for a request too large for it); a daily limit's do not count.
  const tokensPerMinute = positiveCount(MINUTE_TOKEN_LIMIT.exec(limit.message)?.[1]);
  const stated = tokensPerMinute === null ? {} : { tokensPerMinute };
  if (status === 413 || (status === 429 && TOO_LARGE_WORDS.test(limit.message))) {
    return { kind: 'tooLarge', metric, waitMs: null, ...stated };
  }
  if (status !== 429) return null;
  const waitMs = waitOf(limit, metric, headers, now);
  const daily = DAILY_WORDS.test(limit.message);
  return { kind: daily ? 'daily' : 'perMinute', metric, waitMs, ...stated };
}

/**
 * Why a picture was not drawn (issue 41, part 3: "its failures are the picture's, never the
 * turn's"), one kind for each thing the game tells the player, with the provider's own words
 * (the key taken out, as failure.ts does for the text client). A refusal is read with the text
 * client's readers: errorOf for the body's shapes, limitOf for the wait a 429 names, and
 * ProviderError's own test of a model that is gone.
 */
import { ProviderError } from '../errors';
import { MAX_ERROR_TEXT, errorOf, parseJson, redactKey } from '../failure';
import { limitOf } from '../limits';

export type PictureFailureKind =
  /** OpenAI's 403: the organisation must be verified to use the model. */
  | 'unverified'
  /** The provider's safety system refused the prompt or the picture. */
  | 'refused'
  /** A per-minute (or per-day) image limit: retryAfterMs says how long, when the answer did. */
  | 'rateLimited'
  /** The account has no credit left (402, OpenAI's 429 insufficient_quota). */
  | 'noCredit'
  /** The model is unknown, retired, or cannot draw: another must be chosen. */
  | 'retired'
  /** The request took longer than the caller's timeout (PICTURE_TIMEOUT_MS). */
  | 'timeout'
  /** The answer held no picture, or bytes that are not a PNG, JPEG or WebP image. */
  | 'notAnImage'
  /** The picture is larger than MAX_PICTURE_BYTES. */
  | 'tooLarge'
  /** No answer at all: no network, a server that is down, or CORS refused it. */
  | 'unreachable'
  /** The key was refused (401, or a 403 that is not about verification or moderation). */
  | 'keyRefused'
  | 'other';

export interface PictureErrorDetails {
  /** The HTTP status of the refusal, when there was one. */
  status?: number | null;
  /** What the provider said, the key taken out; null when it said nothing. */
  providerMessage?: string | null;
  /** The provider's error code (error.code), e.g. moderation_blocked. */
  code?: string | null;
  /** For 'rateLimited': the wait the answer names (ms); null when it names none. */
  retryAfterMs?: number | null;
  cause?: unknown;
}

export class PictureError extends Error {
  readonly kind: PictureFailureKind;
  readonly status: number | null;
  readonly providerMessage: string | null;
  readonly code: string | null;
  readonly retryAfterMs: number | null;

  constructor(kind: PictureFailureKind, message: string, details: PictureErrorDetails = {}) {
    super(message, { cause: details.cause });
    this.name = 'PictureError';
    this.kind = kind;
    this.status = details.status ?? null;
    this.providerMessage = details.providerMessage ?? null;
    this.code = details.code ?? null;
    this.retryAfterMs = details.retryAfterMs ?? null;
  }
}

/**
 * OpenAI's 403 for an organisation not yet verified: "Your organization must be verified to use
 * the model `gpt-image-1`. Please go to: https://platform.openai.com/settings/organization/general
 * and click on Verify Organization..." (type invalid_request_error, code null; as reported in
 * openai-php/client#565 and receptron/mulmocast-app#1090).
 */
const UNVERIFIED = /organization must be verified/i;
/**
 * A refusal by a safety system: OpenAI's GPT image models answer 400 with code
 * moderation_blocked and type image_generation_user_error ("Your request was rejected by the
 * safety system. ... safety_violations=[violence].", as reported in jeffstric/ZJT#480 and
 * ucx0204/CarrotMangaTranslator#122); DALL·E answered content_policy_violation ("Your request
 * was rejected as a result of our safety system."); OpenRouter answers 403 when its moderation
 * flags a prompt ("...your input was flagged").
 */
const REFUSED_CODES = new Set(['moderation_blocked', 'content_policy_violation', 'content_filter']);
const REFUSED_WORDS = /safety system|content policy|input was flagged|flagged by moderation/i;
/**
 * OpenRouter's refusal of a model that has no endpoint for what is asked (its 404 "No endpoints
 * found that support ..."): the model cannot draw.
 */
const CANNOT_DRAW = /no endpoints found that support/i;

const kindLabel = (kind: PictureFailureKind, status: number) => `${kind}, HTTP ${status}`;

/**
 * A refused picture request as the PictureError the game tells apart, with the provider's words.
 * `text` is the answer's body as read (a picture request's refusal is small; pictureClient.ts
 * bounds what it reads).
 */
export function pictureRefusalOf(
  status: number,
  text: string,
  headers: Headers,
  apiKey: string,
  now: number,
): PictureError {
  const body = parseJson(text);
  const plain = text.trim().slice(0, MAX_ERROR_TEXT);
  const { message, code, param } = errorOf(body, plain || `HTTP ${status}`);
  const said = redactKey(message, apiKey);
  const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
  const details = { status, providerMessage: said, code: code ?? null };
  const refuse = (kind: PictureFailureKind, extra: PictureErrorDetails = {}) =>
    new PictureError(kind, `The picture was not drawn (${kindLabel(kind, status)}): ${said}`, {
      ...details,
      ...extra,
    });

  if (status === 403 && UNVERIFIED.test(said)) return refuse('unverified');
  const refused =
    REFUSED_CODES.has(code ?? '') ||
    type === 'image_generation_user_error' ||
    ((status === 400 || status === 403) && REFUSED_WORDS.test(said));
  if (refused) return refuse('refused');
  const limit = limitOf(status, body, headers, now);
  if (limit?.kind === 'noCredit') return refuse('noCredit');
  // A request too large for a minute's tokens (Groq's 413) is no wait: it fails as it is.
  if (limit !== null && limit.kind !== 'tooLarge') {
    return refuse('rateLimited', { retryAfterMs: limit.waitMs });
  }
  if (status === 401 || status === 403) return refuse('keyRefused');
  const gone = new ProviderError(status, said, { code, param });
  if (gone.isModelUnavailable || (status === 404 && CANNOT_DRAW.test(said))) {
    return refuse('retired');
  }
  return refuse('other');
}

/**
 * What a provider says when it refuses a request, read into the errors the callers tell apart.
 * An error body comes in OpenAI's shape ({error: {message, code, param}}), in a variant of it,
 * or as plain text; one of the provider's limits (429, 413, 402) becomes a ProviderLimitError,
 * anything else a ProviderError with the provider's own message. The key, should a provider
 * echo it back, is taken out of every message first.
 */
import { ProviderError, limitError } from './errors';
import { limitOf } from './limits';
import type { ProviderRequest } from './requests';

/** The most of a provider's plain-text answer an error message quotes. */
export const MAX_ERROR_TEXT = 500;

/** The key, should a provider echo it back, never reaches an error message. */
export function redactKey(text: string, apiKey: string): string {
  const key = apiKey.trim();
  return key === '' ? text : text.split(key).join('[API key]');
}

export const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

interface ErrorBody {
  message: string;
  code?: string;
  param?: string;
  failedGeneration?: string;
}

/** What an error body says: OpenAI's {error: {message, code, param}}, variants, or text. */
export function errorOf(body: unknown, fallback: string): ErrorBody {
  if (typeof body !== 'object' || body === null) return { message: fallback };
  const { error, message, detail } = body as Record<string, unknown>;
  if (typeof error === 'object' && error !== null) {
    const nested = error as Record<string, unknown>;
    return {
      message: textOf(nested.message) ?? fallback,
      code: textOf(nested.code) ?? undefined,
      param: textOf(nested.param) ?? undefined,
      // Groq's json_validate_failed carries what the model wrote.
      failedGeneration:
        typeof nested.failed_generation === 'string' ? nested.failed_generation : undefined,
    };
  }
  return { message: textOf(error) ?? textOf(message) ?? textOf(detail) ?? fallback };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A refused request as the error the callers tell apart: one of the provider's limits (429,
 * 413, 402, read from the body and whatever headers the browser may read, a stated reset time
 * counted from the request's `now`), or any other error with the provider's own message.
 */
export async function failureOf(
  response: Response,
  { apiKey, now = Date.now }: Pick<ProviderRequest, 'apiKey' | 'now'>,
): Promise<Error> {
  const text = await response.text().catch(() => '');
  const plain = text.trim().slice(0, MAX_ERROR_TEXT);
  const fallback = plain || `HTTP ${response.status} ${response.statusText}`.trim();
  const body = parseJson(text);
  const { message, ...details } = errorOf(body, fallback);
  const said = redactKey(message, apiKey);
  const limit = limitOf(response.status, body, response.headers, now());
  if (limit) return limitError(response.status, limit, said);
  return new ProviderError(response.status, said, details);
}

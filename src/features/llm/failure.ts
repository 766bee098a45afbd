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

/**
 * A request the server's validation refused, as Mistral's API sends it (a 422 whose message is
 * {detail: [{type: 'extra_forbidden', loc: ['body', 'stream_options', 'include_usage'], msg:
 * 'Extra inputs are not permitted'}]}, as reported in avante-corp/avante.nvim#2347 and
 * dnakov/anon-kode#53; in 2024 the message was that object as a JSON string) and FastAPI
 * servers do (the list at the top level): the first complaint, and the parameter it names.
 */
function validationErrorOf(body: Record<string, unknown>): ErrorBody | null {
  const { message } = body;
  const nested = typeof message === 'string' ? parseJson(message) : message;
  const list = [body.detail, (nested as { detail?: unknown } | null)?.detail].find(Array.isArray);
  const first = (list as unknown[] | undefined)?.[0] as
    { loc?: unknown; msg?: unknown } | undefined;
  const said = textOf(first?.msg);
  if (said === null) return null;
  const loc = Array.isArray(first?.loc) ? first.loc.map(String) : [];
  const place = loc.join('.');
  return {
    message: place === '' ? said : `${said}: ${place}`,
    param: loc[0] === 'body' && loc[1] !== undefined ? loc[1] : undefined,
  };
}

/** What an error body says: OpenAI's {error: {message, code, param}}, variants, or text. */
export function errorOf(body: unknown, fallback: string): ErrorBody {
  if (typeof body !== 'object' || body === null) return { message: fallback };
  const validation = validationErrorOf(body as Record<string, unknown>);
  if (validation !== null) return validation;
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

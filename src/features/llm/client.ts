/**
 * The language-model calls of SPEC.md section 7: the key check and one completion. Plain I/O
 * with no waiting or retrying of its own: the game's sagas wait out a 429 and retry, and cancel
 * through the AbortSignal every call takes. The API key goes into the Authorization header and
 * nowhere else: never into a log or an error message.
 */
import { jsonrepair } from 'jsonrepair';

import { chatCompletionsUrl, type ProviderPreset } from './providers';

/** SPEC.md section 9. */
export const KEY_CHECK_MAX_TOKENS = 256;
export const GENERATION_MAX_TOKENS = 1000;
export const TEMPERATURE = 0.7;
export const DEFAULT_RETRY_AFTER_MS = 5000;

export const KEY_CHECK_SYSTEM_MESSAGE = 'You are a helpful assistant.';
/** OpenAI's JSON mode also requires the word JSON somewhere in the messages. */
export const JSON_SYSTEM_MESSAGE =
  'You are the narrator of a text adventure game. Always reply with one valid JSON object and nothing else: no prose, no code fences.';

/** The provider asked us to slow down (HTTP 429); try again after retryAfterMs. */
export class RateLimitedError extends Error {
  readonly status = 429;
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number, options?: { cause?: unknown }) {
    super(`The language-model provider is rate limiting; retry after ${retryAfterMs} ms`, options);
    this.name = 'RateLimitedError';
    this.retryAfterMs = retryAfterMs;
  }
}

/** Any other error status, with the provider's own message. */
export class ProviderError extends Error {
  readonly status: number;

  constructor(status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderError';
    this.status = status;
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

type Fetch = typeof globalThis.fetch;

interface ProviderRequest {
  provider: ProviderPreset;
  /** Used only when the preset lets the player edit it; the preset's own URL otherwise. */
  baseUrl?: string;
  apiKey: string;
  /** The preset's default model when blank. */
  model: string;
  signal: AbortSignal;
  /** Defaults to the global fetch; tests and other runtimes pass their own. */
  fetch?: Fetch;
}

export type CheckApiKeyRequest = ProviderRequest;

export interface CompletionRequest extends ProviderRequest {
  /** The system message; JSON_SYSTEM_MESSAGE when absent. */
  system?: string;
  prompt: string;
  /** Ask for server-sent events (only sent when the preset supports streaming). */
  stream: boolean;
  /** Called with the whole text so far each time more of a streamed reply arrives. */
  onText?: (textSoFar: string) => void;
}

interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

function endpointOf({ provider, baseUrl }: ProviderRequest): string {
  const editable = provider.editableBaseUrl && baseUrl !== undefined && baseUrl.trim() !== '';
  return chatCompletionsUrl(editable ? baseUrl : provider.baseUrl);
}

function headersOf({ provider, apiKey }: ProviderRequest): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const key = apiKey.trim();
  if (key !== '' || provider.requiresKey) headers.Authorization = `Bearer ${key}`;
  return headers;
}

function post(request: ProviderRequest, body: Record<string, unknown>): Promise<Response> {
  const doFetch = request.fetch ?? globalThis.fetch.bind(globalThis);
  return doFetch(endpointOf(request), {
    method: 'POST',
    headers: headersOf(request),
    body: JSON.stringify({ model: request.model.trim() || request.provider.defaultModel, ...body }),
    signal: request.signal,
  });
}

/** The key, should a provider echo it back, never reaches an error message. */
function redactKey(text: string, apiKey: string): string {
  const key = apiKey.trim();
  return key === '' ? text : text.split(key).join('[API key]');
}

/**
 * SPEC.md section 5, key check: a short chat request; an OK status means the key is valid.
 * A network failure rejects (the caller shows 'An error occurred while validating your API key.').
 */
export async function checkApiKey(
  request: CheckApiKeyRequest,
): Promise<{ ok: true } | { ok: false }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: KEY_CHECK_SYSTEM_MESSAGE },
    { role: 'user', content: 'hi' },
  ];
  const response = await post(request, { messages, max_tokens: KEY_CHECK_MAX_TOKENS });
  // Only the status matters; release the connection without reading the reply.
  await response.body?.cancel().catch(() => undefined);
  return response.ok ? { ok: true } : { ok: false };
}

/**
 * Milliseconds to wait from a Retry-After header: delay-seconds or an HTTP date. Absent or
 * unreadable, the spec's 5 seconds.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, date - now);
}

/** The message in an error body: OpenAI's {error: {message}}, a few common variants, or text. */
function errorMessageOf(body: unknown, fallback: string): string {
  if (typeof body === 'object' && body !== null) {
    const { error, message, detail } = body as Record<string, unknown>;
    if (typeof error === 'object' && error !== null) {
      const nested = (error as Record<string, unknown>).message;
      if (typeof nested === 'string' && nested.trim() !== '') return nested.trim();
    }
    for (const candidate of [error, message, detail]) {
      if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
    }
  }
  return fallback;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const MAX_ERROR_TEXT = 500;

async function providerErrorOf(response: Response, apiKey: string): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  const plain = text.trim().slice(0, MAX_ERROR_TEXT);
  const fallback = plain || `HTTP ${response.status} ${response.statusText}`.trim();
  const message = errorMessageOf(parseJson(text), fallback);
  return new ProviderError(response.status, redactKey(message, apiKey));
}

/** Reads a body to the end; a dropped connection becomes StreamInterruptedError. */
async function readAll(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal.aborted || isAbortError(error)) throw error;
    throw new StreamInterruptedError('', { cause: error });
  }
}

function replyTextOf(completion: unknown): string {
  const choices = (completion as { choices?: unknown } | null)?.choices;
  const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : null;
  const message = first?.message as { content?: unknown } | undefined;
  return typeof message?.content === 'string' ? message.content : '';
}

interface StreamState {
  text: string;
  finished: boolean;
}

/** One server-sent event's data: a completion chunk, an error, or the closing [DONE]. */
function applyEvent(data: string, state: StreamState, status: number, apiKey: string): void {
  if (data === '[DONE]') {
    state.finished = true;
    return;
  }
  const chunk = parseJson(data) as Record<string, unknown> | undefined;
  if (typeof chunk !== 'object' || chunk === null) return;
  if (chunk.error !== undefined) {
    const message = errorMessageOf(chunk, 'The provider reported an error mid-stream');
    throw new ProviderError(status, redactKey(message, apiKey));
  }
  const choice = Array.isArray(chunk.choices)
    ? (chunk.choices[0] as Record<string, unknown> | undefined)
    : undefined;
  const content = (choice?.delta as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') state.text += content;
  if (typeof choice?.finish_reason === 'string') state.finished = true;
}

/**
 * Reads an event stream of completion chunks (OpenAI's streaming format). Complete once a
 * [DONE] or a finish_reason has arrived; a stream that ends before either was cut off.
 */
async function readEventStream(
  response: Response,
  { signal, apiKey, onText }: CompletionRequest,
): Promise<string> {
  const state: StreamState = { text: '', finished: false };
  if (!response.body) throw new StreamInterruptedError('');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let dataLines: string[] = [];

  const dispatch = () => {
    if (dataLines.length === 0) return;
    const before = state.text;
    applyEvent(dataLines.join('\n'), state, response.status, apiKey);
    dataLines = [];
    if (state.text !== before) onText?.(state.text);
  };
  const readLines = (final: boolean) => {
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = final ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (line === '') dispatch();
      else if (line.startsWith('data:')) dataLines.push(line.slice(5).replace(/^ /, ''));
      // Comments (': keep-alive') and event:, id:, retry: fields carry nothing we use.
    }
    if (final) dispatch();
  };

  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted || isAbortError(error)) throw error;
        throw new StreamInterruptedError(state.text, { cause: error });
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      readLines(false);
      if (state.finished) break;
    }
    buffer += decoder.decode();
    readLines(true);
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (!state.finished) throw new StreamInterruptedError(state.text);
  return state.text;
}

/**
 * SPEC.md section 7, generation: one chat completion, resolving with a one-element list
 * holding the reply text (the spec's shared helper's shape). Rejects with RateLimitedError on
 * 429, ProviderError on any other error status, StreamInterruptedError when the reply is cut
 * off, and the fetch's AbortError when the signal is aborted.
 */
export async function requestCompletion(request: CompletionRequest): Promise<[string]> {
  const { provider, apiKey, signal } = request;
  const messages: ChatMessage[] = [
    { role: 'system', content: request.system ?? JSON_SYSTEM_MESSAGE },
    { role: 'user', content: request.prompt },
  ];
  const body: Record<string, unknown> = {
    messages,
    temperature: TEMPERATURE,
    max_tokens: GENERATION_MAX_TOKENS,
  };
  if (provider.supportsJsonMode) body.response_format = { type: 'json_object' };
  if (request.stream && provider.supportsStreaming) body.stream = true;

  const response = await post(request, body);
  if (response.status === 429) {
    await response.body?.cancel().catch(() => undefined);
    throw new RateLimitedError(parseRetryAfter(response.headers.get('Retry-After')));
  }
  if (!response.ok) throw await providerErrorOf(response, apiKey);

  // A server may answer a streaming request with one whole reply; read whatever came.
  const contentType = response.headers.get('Content-Type') ?? '';
  if (contentType.includes('text/event-stream')) return [await readEventStream(response, request)];

  const text = await readAll(response, signal);
  const completion = parseJson(text);
  if (completion === undefined) {
    const preview = text.trim().slice(0, MAX_ERROR_TEXT);
    const message = `The provider's reply is not a chat completion: ${preview}`;
    throw new ProviderError(response.status, redactKey(message, apiKey));
  }
  if (typeof completion === 'object' && completion !== null && 'error' in completion) {
    const message = errorMessageOf(completion, 'The provider reported an error');
    throw new ProviderError(response.status, redactKey(message, apiKey));
  }
  const reply = replyTextOf(completion);
  if (reply !== '') request.onText?.(reply);
  return [reply];
}

const LINE_BREAK = /\r\n|\r|\n/g;
/** Attempts at a prefix when the text so far cannot be repaired as a whole. */
const MAX_REPAIR_ATTEMPTS = 4;

function repairPartial(text: string): unknown {
  let candidate = text;
  for (let attempt = 0; attempt < MAX_REPAIR_ATTEMPTS && candidate !== ''; attempt += 1) {
    try {
      return JSON.parse(jsonrepair(candidate)) as unknown;
    } catch (error) {
      // jsonrepair reports where it gave up; what came before that is a repairable prefix.
      const position = (error as { position?: unknown }).position;
      if (typeof position !== 'number' || position <= 0 || position >= candidate.length) {
        return undefined;
      }
      candidate = candidate.slice(0, position);
    }
  }
  return undefined;
}

/**
 * The value so far of one string field of a JSON reply still streaming in (e.g. storyStart,
 * storySegment), for showing the narrative while it is written. jsonrepair closes the open
 * string and object; '' while the field has not started, or when the text cannot be read.
 */
export function partialField(text: string, field: string): string {
  const start = text.indexOf('{');
  if (start === -1) return '';
  let parsed = repairPartial(text.slice(start));
  if (parsed === undefined) {
    // Prose after a complete object, or a remark outside the strings: try up to the last brace.
    const end = text.lastIndexOf('}');
    if (end > start) parsed = repairPartial(text.slice(start, end + 1));
  }
  if (typeof parsed !== 'object' || parsed === null) return '';
  const value = (parsed as Record<string, unknown>)[field];
  // Newlines become spaces, as parseModelReply does with the finished reply.
  return typeof value === 'string' ? value.replace(LINE_BREAK, ' ') : '';
}

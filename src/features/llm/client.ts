/**
 * The language-model calls of SPEC.md section 7: the provider's model list, the key check and
 * one completion. Plain I/O with no waiting of its own: the game's sagas wait out a 429 and
 * retry, and cancel through the AbortSignal every call takes. The one retry here is the
 * capability negotiation: a request whose feature the provider refuses (a 400 naming JSON mode,
 * streaming, reasoning effort, temperature or max_tokens) is made once more without it, and the
 * caller is told so that the session remembers. The API key goes into the Authorization header
 * and nowhere else: never into a log or an error message.
 */
import { jsonrepair } from 'jsonrepair';

import { stillThinking, withoutThinking } from '../../engine/reply';
import {
  planRequest,
  refusedFeature,
  requestBody,
  type ChatMessage,
  type ModelFeature,
  type PlanOptions,
  type RequestPlan,
} from './capabilities';
import {
  ProviderError,
  ProviderUnreachableError,
  StreamInterruptedError,
  isAbortError,
  limitError,
} from './errors';
import { limitOf } from './limits';
import {
  baseUrlOf,
  chatCompletionsUrl,
  modelOf,
  modelsUrl,
  type ProviderPreset,
} from './providers';

export const KEY_CHECK_SYSTEM_MESSAGE = 'You are a helpful assistant.';
/** OpenAI's JSON mode also requires the word JSON somewhere in the messages. */
export const JSON_SYSTEM_MESSAGE =
  'You are the narrator of a text adventure game. Always reply with one valid JSON object and nothing else: no prose, no code fences.';

type Fetch = typeof globalThis.fetch;

interface ProviderRequest {
  provider: ProviderPreset;
  /** Used only when the preset lets the player edit it; the preset's own URL otherwise. */
  baseUrl?: string;
  apiKey: string;
  signal: AbortSignal;
  /** Defaults to the global fetch; tests and other runtimes pass their own. */
  fetch?: Fetch;
}

export type ModelListRequest = ProviderRequest;

interface ChatRequest extends ProviderRequest {
  /** The preset's default model when blank. */
  model: string;
  /** Features this provider refused for this model earlier in the session: not sent. */
  refused?: readonly ModelFeature[];
  /** Told when the provider refuses a feature (the request is then made without it). */
  onFeatureRefused?: (feature: ModelFeature) => void;
}

export type CheckApiKeyRequest = ChatRequest;

export interface CompletionRequest extends ChatRequest {
  /** The system message; JSON_SYSTEM_MESSAGE when absent. */
  system?: string;
  prompt: string;
  /** Ask for server-sent events (sent when the provider can stream). */
  stream: boolean;
  /** The most the reply needs, in tokens (max_tokens, plus room to think for a reasoning model). */
  replyTokens?: number;
  /** Called with the whole text so far each time more of a streamed reply arrives. */
  onText?: (textSoFar: string) => void;
  /** Called while the model thinks before answering (its reasoning is never shown). */
  onReasoning?: () => void;
}

function headersOf({ provider, apiKey }: ProviderRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  const key = apiKey.trim();
  if (key !== '' || provider.requiresKey) headers.Authorization = `Bearer ${key}`;
  return headers;
}

/** One fetch; a request that gets no answer at all becomes ProviderUnreachableError. */
async function send(request: ProviderRequest, url: string, init: RequestInit): Promise<Response> {
  const doFetch = request.fetch ?? globalThis.fetch.bind(globalThis);
  try {
    return await doFetch(url, { ...init, signal: request.signal });
  } catch (error) {
    if (request.signal.aborted || isAbortError(error)) throw error;
    throw new ProviderUnreachableError(new URL(url).origin, { cause: error });
  }
}

const modelAsked = (request: ChatRequest) => modelOf(request.provider, request.model);

function postChat(request: ChatRequest, body: Record<string, unknown>): Promise<Response> {
  return send(request, chatCompletionsUrl(baseUrlOf(request.provider, request.baseUrl)), {
    method: 'POST',
    headers: { ...headersOf(request), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The key, should a provider echo it back, never reaches an error message. */
function redactKey(text: string, apiKey: string): string {
  const key = apiKey.trim();
  return key === '' ? text : text.split(key).join('[API key]');
}

const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

interface ErrorBody {
  message: string;
  code?: string;
  param?: string;
  failedGeneration?: string;
}

/** What an error body says: OpenAI's {error: {message, code, param}}, variants, or text. */
function errorOf(body: unknown, fallback: string): ErrorBody {
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const MAX_ERROR_TEXT = 500;

/**
 * A refused request as the error the callers tell apart: one of the provider's limits (429,
 * 413, 402, read from the body and whatever headers the browser may read), or any other error
 * with the provider's own message.
 */
async function failureOf(response: Response, apiKey: string): Promise<Error> {
  const text = await response.text().catch(() => '');
  const plain = text.trim().slice(0, MAX_ERROR_TEXT);
  const fallback = plain || `HTTP ${response.status} ${response.statusText}`.trim();
  const body = parseJson(text);
  const { message, ...details } = errorOf(body, fallback);
  const said = redactKey(message, apiKey);
  const limit = limitOf(response.status, body, response.headers, Date.now());
  if (limit) return limitError(response.status, limit, said);
  return new ProviderError(response.status, said, details);
}

/**
 * Makes a chat request by the plan for this provider and model; when the provider refuses one
 * of the plan's features, tells the caller and makes it again without that feature (each
 * feature once, so this ends).
 */
async function negotiate<T>(
  request: ChatRequest,
  options: PlanOptions,
  attempt: (plan: RequestPlan) => Promise<T>,
): Promise<T> {
  const refused = [...(request.refused ?? [])];
  for (;;) {
    const plan = planRequest(request.provider, modelAsked(request), { ...options, refused });
    try {
      return await attempt(plan);
    } catch (error) {
      const feature = refusedFeature(error, plan);
      if (feature === null || refused.includes(feature)) throw error;
      refused.push(feature);
      request.onFeatureRefused?.(feature);
    }
  }
}

/**
 * SPEC.md section 5, key check: a short chat request ('hi'); an OK status means the key is
 * valid. Rejects with ProviderError (the status tells a refused key from a retired model),
 * a ProviderLimitError (a rate limit, a daily cap, no credit), or ProviderUnreachableError.
 */
export async function checkApiKey(request: CheckApiKeyRequest): Promise<void> {
  const messages: ChatMessage[] = [
    { role: 'system', content: KEY_CHECK_SYSTEM_MESSAGE },
    { role: 'user', content: 'hi' },
  ];
  await negotiate(request, { keyCheck: true }, async (plan) => {
    const response = await postChat(request, requestBody(plan, modelAsked(request), messages));
    if (!response.ok) throw await failureOf(response, request.apiKey);
    // Only the status matters; release the connection without reading the reply.
    await response.body?.cancel().catch(() => undefined);
  });
}

/**
 * The provider's list of models (GET /models, OpenAI-compatible), as it sent it: models.ts
 * reads the chat models out of it. Rejects like checkApiKey.
 */
export async function fetchModelList(request: ModelListRequest): Promise<unknown> {
  const url = modelsUrl(baseUrlOf(request.provider, request.baseUrl));
  const response = await send(request, url, { method: 'GET', headers: headersOf(request) });
  if (!response.ok) throw await failureOf(response, request.apiKey);
  const text = await response.text();
  const list = parseJson(text);
  if (list === undefined) {
    throw new ProviderError(response.status, `The model list is not JSON: ${text.slice(0, 80)}`);
  }
  return list;
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

/** The first choice's content; a reasoning model's message.reasoning is not the reply. */
function replyTextOf(completion: unknown): string {
  const choices = (completion as { choices?: unknown } | null)?.choices;
  const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : null;
  const message = first?.message as { content?: unknown } | undefined;
  return typeof message?.content === 'string' ? message.content : '';
}

interface StreamState {
  text: string;
  reasoning: boolean;
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
    // The provider's upstream failed mid-reply (OpenRouter documents such events): the reply
    // was cut off, and is asked for again like a dropped connection.
    const { message, ...details } = errorOf(chunk, 'The provider reported an error mid-stream');
    const cause = new ProviderError(status, redactKey(message, apiKey), details);
    throw new StreamInterruptedError(state.text, { cause });
  }
  // Usage-only chunks (Groq's x_groq, OpenAI's stream_options) have no choices: nothing to read.
  const choice = Array.isArray(chunk.choices)
    ? (chunk.choices[0] as Record<string, unknown> | undefined)
    : undefined;
  const delta = (choice?.delta ?? {}) as Record<string, unknown>;
  // Reasoning models think aloud first: Groq and OpenRouter in delta.reasoning, DeepSeek,
  // vLLM and LM Studio in delta.reasoning_content. It is never story text.
  if (textOf(delta.reasoning) !== null || textOf(delta.reasoning_content) !== null) {
    state.reasoning = true;
  }
  if (typeof delta.content === 'string') state.text += delta.content;
  if (typeof choice?.finish_reason === 'string') state.finished = true;
}

/**
 * Reads an event stream of completion chunks (OpenAI's streaming format). Complete once a
 * [DONE] or a finish_reason has arrived; a stream that ends before either was cut off.
 */
async function readEventStream(response: Response, request: CompletionRequest): Promise<string> {
  const { signal, apiKey, onText, onReasoning } = request;
  const state: StreamState = { text: '', reasoning: false, finished: false };
  if (!response.body) throw new StreamInterruptedError('');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let dataLines: string[] = [];

  const dispatch = () => {
    if (dataLines.length === 0) return;
    const before = state.text;
    state.reasoning = false;
    applyEvent(dataLines.join('\n'), state, response.status, apiKey);
    dataLines = [];
    // Thinking shows as thinking, in a reasoning field or in a <think> block of the content.
    if (state.reasoning || (state.text !== before && stillThinking(state.text))) onReasoning?.();
    else if (state.text !== before) onText?.(state.text);
  };
  const readLines = (final: boolean) => {
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = final ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (line === '') dispatch();
      else if (line.startsWith('data:')) dataLines.push(line.slice(5).replace(/^ /, ''));
      // Comments (': keep-alive', ': OPENROUTER PROCESSING') and event:, id:, retry: fields
      // carry nothing we use.
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

async function completionOnce(request: CompletionRequest, plan: RequestPlan): Promise<string> {
  const { apiKey, signal } = request;
  const messages: ChatMessage[] = [
    { role: 'system', content: request.system ?? JSON_SYSTEM_MESSAGE },
    { role: 'user', content: request.prompt },
  ];
  const response = await postChat(request, requestBody(plan, modelAsked(request), messages));
  if (!response.ok) {
    const failure = await failureOf(response, apiKey);
    // What the model wrote is still the reply: the game's own repair may read it.
    if (failure instanceof ProviderError && failure.isInvalidJsonReply) {
      return failure.failedGeneration ?? '';
    }
    throw failure;
  }

  // A server may answer a streaming request with one whole reply; read whatever came.
  const contentType = response.headers.get('Content-Type') ?? '';
  if (contentType.includes('text/event-stream')) return readEventStream(response, request);

  const text = await readAll(response, signal);
  const completion = parseJson(text);
  if (completion === undefined) {
    const preview = text.trim().slice(0, MAX_ERROR_TEXT);
    const message = `The provider's reply is not a chat completion: ${preview}`;
    throw new ProviderError(response.status, redactKey(message, apiKey));
  }
  if (typeof completion === 'object' && completion !== null && 'error' in completion) {
    const { message, ...details } = errorOf(completion, 'The provider reported an error');
    throw new ProviderError(response.status, redactKey(message, apiKey), details);
  }
  const reply = replyTextOf(completion);
  if (withoutThinking(reply).trim() !== '') request.onText?.(reply);
  return reply;
}

/**
 * SPEC.md section 7, generation: one chat completion, resolving with a one-element list
 * holding the reply text (the spec's shared helper's shape; a <think> block the model left in
 * it is removed when the reply is parsed). Rejects with a ProviderLimitError when the provider
 * names one of its limits (429, 413, 402), ProviderError on any other error status, ProviderUnreachableError when no answer came,
 * StreamInterruptedError when the reply is cut off, and the fetch's AbortError when the signal
 * is aborted.
 */
export async function requestCompletion(request: CompletionRequest): Promise<[string]> {
  const options = { stream: request.stream, replyTokens: request.replyTokens };
  const reply = await negotiate(request, options, (plan) => completionOnce(request, plan));
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
 * string and object; '' while the field has not started, or when the text cannot be read. A
 * model's <think> block is not the reply: nothing in it is read.
 */
export function partialField(streamed: string, field: string): string {
  const text = withoutThinking(streamed);
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

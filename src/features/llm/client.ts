/**
 * The language-model calls of SPEC.md section 7: the provider's model list, the key check and
 * one completion. Plain I/O with no waiting of its own: the game's sagas wait out a 429 and
 * retry, and cancel through the AbortSignal every call takes. The one retry here is the
 * capability negotiation: a request whose feature the provider refuses (a 400 naming JSON mode,
 * streaming, reasoning effort, temperature or max_tokens) is made once more without it, and the
 * caller is told so that the session remembers. The API key goes into the Authorization header
 * and nowhere else: never into a log or an error message. What a request takes and how it is
 * sent are in requests.ts, how a refusal is read in failure.ts, a streamed reply in
 * eventStream.ts, and the narrative of a reply still streaming in partialField.ts.
 */
import { withoutThinking } from '../../engine/reply';
import {
  planRequest,
  refusedFeature,
  requestBody,
  type ChatMessage,
  type PlanOptions,
  type RequestPlan,
} from './capabilities';
import { ProviderError, StreamInterruptedError, isAbortError } from './errors';
import { readEventStream } from './eventStream';
import { MAX_ERROR_TEXT, errorOf, failureOf, parseJson, redactKey } from './failure';
import {
  getModels,
  modelAsked,
  postChat,
  type ChatRequest,
  type CheckApiKeyRequest,
  type CompletionRequest,
  type ModelListRequest,
} from './requests';

export type { CheckApiKeyRequest, CompletionRequest, ModelListRequest } from './requests';

export const KEY_CHECK_SYSTEM_MESSAGE = 'You are a helpful assistant.';
/** OpenAI's JSON mode also requires the word JSON somewhere in the messages. */
export const JSON_SYSTEM_MESSAGE =
  'You are the narrator of a text adventure game. Always reply with one valid JSON object and nothing else: no prose, no code fences.';

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
  const response = await getModels(request);
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

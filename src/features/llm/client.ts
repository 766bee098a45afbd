/**
 * The language-model calls of SPEC.md section 7: the provider's model list, the key check and
 * one completion. Plain I/O with no waiting of its own (but a finished stream's few moments for
 * its usage, eventStream.ts): the game's sagas wait out a 429 and retry, and cancel through the
 * AbortSignal every call takes. The one retry here is the capability negotiation: a request
 * whose feature the provider refuses (a 400 or 422 naming JSON mode, streaming, stream_options,
 * reasoning effort, temperature or max_tokens) is made once more without it, and the
 * caller is told so that the session remembers. The API key goes into the Authorization header
 * and nowhere else: never into a log or an error message. What a request takes and how it is
 * sent are in requests.ts, how a refusal is read in failure.ts, a streamed reply in
 * eventStream.ts, and the narrative of a reply still streaming in partialField.ts. What a reply
 * used (usage.ts) and the per-minute budget an answer states go to the caller as they are read.
 */
import { withoutThinking } from '../../engine/reply';
import {
  lessonOf,
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
  ProviderLimitError,
  ReplyCutOffError,
  StreamInterruptedError,
  isAbortError,
} from './errors';
import { readEventStream, type StreamedReply } from './eventStream';
import { MAX_ERROR_TEXT, errorOf, failureOf, parseJson, redactKey } from './failure';
import { minuteTokenLimitOf } from './limits';
import {
  getModels,
  modelAsked,
  postChat,
  type ChatRequest,
  type CheckApiKeyRequest,
  type CompletionRequest,
  type ModelListRequest,
} from './requests';
import { usageOf } from './usage';

export type { CheckApiKeyRequest, CompletionRequest, ModelListRequest } from './requests';

export const KEY_CHECK_SYSTEM_MESSAGE = 'You are a helpful assistant.';
/** OpenAI's JSON mode also requires the word JSON somewhere in the messages. */
export const JSON_SYSTEM_MESSAGE =
  'You are the narrator of a text adventure game. Always reply with one valid JSON object and nothing else: no prose, no code fences.';

/**
 * Makes a chat request by the plan for this provider and model; when the provider refuses one
 * of the plan's parameters, learns from the refusal (leave it out, or send the value it names),
 * tells the caller so that the game remembers it for this model, and asks again. Each
 * parameter is learnt once (an effort the model then refuses too is left out), so this ends.
 */
async function negotiate<T>(
  request: ChatRequest,
  options: PlanOptions,
  attempt: (plan: RequestPlan) => Promise<T>,
): Promise<T> {
  const lessons = [...(request.lessons ?? [])];
  /** Refusals of each parameter in this request: a second one leaves the parameter out. */
  const refusals = new Map<ModelFeature, number>();
  for (;;) {
    const plan = planRequest(request.provider, modelAsked(request), { ...options, lessons });
    try {
      return await attempt(plan);
    } catch (error) {
      const feature = refusedFeature(error, plan);
      const known = lessons.findIndex((lesson) => lesson.feature === feature);
      // Nothing to learn: not a refusal of a parameter, or one already left out.
      if (feature === null || (known !== -1 && lessons[known]!.use === undefined)) throw error;
      const times = (refusals.get(feature) ?? 0) + 1;
      refusals.set(feature, times);
      const lesson = times === 1 ? lessonOf(error, feature, plan) : { feature };
      if (known === -1) lessons.push(lesson);
      else lessons[known] = lesson;
      request.onLesson?.(lesson);
    }
  }
}

/**
 * Tells the caller the per-minute token budget an answer states: in a header the page may read,
 * else in the words of a refusal (a failure read from the same answer).
 */
function tellMinuteLimit(request: ChatRequest, response: Response, failure?: Error): void {
  const fromRefusal = failure instanceof ProviderLimitError ? failure.tokensPerMinute : null;
  const tokensPerMinute = minuteTokenLimitOf(response.headers) ?? fromRefusal;
  if (tokensPerMinute !== null) request.onMinuteLimit?.(tokensPerMinute);
}

/** A refused request's error, once the caller has been told the budget it states. */
async function refusalOf(request: ChatRequest, response: Response): Promise<Error> {
  const failure = await failureOf(response, request);
  tellMinuteLimit(request, response, failure);
  return failure;
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
    if (!response.ok) throw await refusalOf(request, response);
    tellMinuteLimit(request, response);
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
  if (!response.ok) throw await failureOf(response, request);
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

/**
 * The first choice's content, whether the output limit cut it off (finish_reason 'length'),
 * and the usage it reports; a reasoning model's message.reasoning is not the reply.
 */
function replyOf(completion: unknown): StreamedReply {
  const choices = (completion as { choices?: unknown } | null)?.choices;
  const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : null;
  const message = first?.message as { content?: unknown } | undefined;
  const text = typeof message?.content === 'string' ? message.content : '';
  return { text, cutOff: first?.finish_reason === 'length', usage: usageOf(completion) };
}

/**
 * A whole reply, streamed or not: its usage told (a reply cut off was paid for too), then its
 * text, or ReplyCutOffError: half a reply is never a reply, and the caller asks again.
 */
function settle(request: CompletionRequest, reply: StreamedReply): string {
  if (reply.usage !== null) request.onUsage?.(reply.usage);
  if (reply.cutOff) throw new ReplyCutOffError(reply.text);
  return reply.text;
}

async function completionOnce(request: CompletionRequest, plan: RequestPlan): Promise<string> {
  const { apiKey, signal } = request;
  const messages: ChatMessage[] = [
    { role: 'system', content: request.system ?? JSON_SYSTEM_MESSAGE },
    { role: 'user', content: request.prompt },
  ];
  const response = await postChat(request, requestBody(plan, modelAsked(request), messages));
  if (!response.ok) {
    const failure = await refusalOf(request, response);
    // What the model wrote is still the reply: the game's own repair may read it.
    if (failure instanceof ProviderError && failure.isInvalidJsonReply) {
      return failure.failedGeneration ?? '';
    }
    throw failure;
  }

  // A server may answer a streaming request with one whole reply; read whatever came.
  const contentType = response.headers.get('Content-Type') ?? '';
  tellMinuteLimit(request, response);
  if (contentType.includes('text/event-stream')) {
    return settle(request, await readEventStream(response, request));
  }

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
  const reply = replyOf(completion);
  if (!reply.cutOff && withoutThinking(reply.text).trim() !== '') request.onText?.(reply.text);
  return settle(request, reply);
}

/**
 * SPEC.md section 7, generation: one chat completion, resolving with a one-element list
 * holding the reply text (the spec's shared helper's shape; a <think> block the model left in
 * it is removed when the reply is parsed). Rejects with a ProviderLimitError when the provider
 * names one of its limits (429, 413, 402), ProviderError on any other error status,
 * ProviderUnreachableError when no answer came, StreamInterruptedError when the stream broke
 * off, ReplyCutOffError when the output limit cut the reply off (finish_reason 'length'), and
 * the fetch's AbortError when the signal is aborted.
 */
export async function requestCompletion(request: CompletionRequest): Promise<[string]> {
  const { stream, replyTokens, moreRoom } = request;
  const options = { stream, replyTokens, moreRoom };
  const reply = await negotiate(request, options, (plan) => completionOnce(request, plan));
  return [reply];
}

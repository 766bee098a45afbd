/**
 * What each call to a provider takes, and the one fetch every call goes through. A request
 * names the provider preset, the key and the signal that cancels it; a chat request adds the
 * model and what the session has learnt it refuses. The API key goes into the Authorization
 * header and nowhere else; a request that gets no answer at all becomes
 * ProviderUnreachableError, naming only the server's origin.
 */
import type { ModelLesson } from './capabilities';
import { ProviderUnreachableError, isAbortError } from './errors';
import type { TokenUsage } from './usage';
import {
  baseUrlOf,
  chatCompletionsUrl,
  modelOf,
  modelsUrl,
  type ProviderPreset,
} from './providers';

type Fetch = typeof globalThis.fetch;

export interface ProviderRequest {
  provider: ProviderPreset;
  /** Used only when the preset lets the player edit it; the preset's own URL otherwise. */
  baseUrl?: string;
  apiKey: string;
  signal: AbortSignal;
  /** Defaults to the global fetch; tests and other runtimes pass their own. */
  fetch?: Fetch;
  /**
   * Now, for a refusal that names when a limit resets (a Retry-After date, a reset instant):
   * the flow's clock (DESIGN.md: a flow's time is the saga context's), the page's when absent.
   */
  now?: () => number;
}

export type ModelListRequest = ProviderRequest;

export interface ChatRequest extends ProviderRequest {
  /** The preset's default model when blank. */
  model: string;
  /** What this provider taught about this model by refusing earlier requests. */
  lessons?: readonly ModelLesson[];
  /** Told when a refusal teaches something (the request is then made again by it). */
  onLesson?: (lesson: ModelLesson) => void;
  /**
   * Told the tokens a minute the key may spend, whenever an answer states it: a readable
   * x-ratelimit-limit-tokens header, or a refusal's "tokens per minute (TPM): Limit 8000".
   */
  onMinuteLimit?: (tokensPerMinute: number) => void;
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
  /** Asked again after a reply the output limit cut off: twice the room to think. */
  moreRoom?: boolean;
  /** Called with the whole text so far each time more of a streamed reply arrives. */
  onText?: (textSoFar: string) => void;
  /** Called while the model thinks before answering (its reasoning is never shown). */
  onReasoning?: () => void;
  /**
   * Called once, before the request settles, with the usage the reply reported (usage.ts);
   * not called when it reported none. A reply cut off by its output limit was paid for too:
   * its usage is told before the ReplyCutOffError.
   */
  onUsage?: (usage: TokenUsage) => void;
  /**
   * How long a stream that has finished its reply may take to send its usage (ms);
   * USAGE_WAIT_MS when absent.
   */
  usageWaitMs?: number;
}

/** The Authorization header, for the provider's own server only (never a URL it answers with). */
export function headersOf({ provider, apiKey }: ProviderRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  const key = apiKey.trim();
  if (key !== '' || provider.requiresKey) headers.Authorization = `Bearer ${key}`;
  return headers;
}

/** One fetch; a request that gets no answer at all becomes ProviderUnreachableError. */
export async function send(
  request: ProviderRequest,
  url: string,
  init: RequestInit,
): Promise<Response> {
  const doFetch = request.fetch ?? globalThis.fetch.bind(globalThis);
  try {
    return await doFetch(url, { ...init, signal: request.signal });
  } catch (error) {
    if (request.signal.aborted || isAbortError(error)) throw error;
    throw new ProviderUnreachableError(new URL(url).origin, { cause: error });
  }
}

export const modelAsked = (request: ChatRequest) => modelOf(request.provider, request.model);

export function postChat(request: ChatRequest, body: Record<string, unknown>): Promise<Response> {
  return send(request, chatCompletionsUrl(baseUrlOf(request.provider, request.baseUrl)), {
    method: 'POST',
    headers: { ...headersOf(request), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** GET /models (OpenAI-compatible) at the preset's or the player's server. */
export function getModels(request: ModelListRequest): Promise<Response> {
  const url = modelsUrl(baseUrlOf(request.provider, request.baseUrl));
  return send(request, url, { method: 'GET', headers: headersOf(request) });
}

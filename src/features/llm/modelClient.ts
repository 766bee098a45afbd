/**
 * The language-model provider as the game's flows see it: one client object in the saga
 * context (`model`), so a test hands in a plain object of its own, or one bound to a fake
 * server's fetch. The browser's client is `httpModelClient()`.
 */
import {
  checkApiKey,
  fetchModelList,
  requestCompletion,
  type CheckApiKeyRequest,
  type CompletionRequest,
  type ModelListRequest,
} from './client';

/**
 * A request as a flow makes it: the client brings its own fetch, and the flow its clock's time
 * (a limit's stated reset is counted from it, so a test that owns the clock owns that too).
 */
type Sent<Request> = Omit<Request, 'fetch' | 'now'> & { now: () => number };

export interface ModelClient {
  /** One chat completion (SPEC.md section 7), streamed when asked; resolves with its text. */
  complete(request: Sent<CompletionRequest>): Promise<string>;
  /** The provider's list of models, as it sent it (GET /models). */
  listModels(request: Sent<ModelListRequest>): Promise<unknown>;
  /** The spec's key check: a short chat request; resolves when the key is valid. */
  checkKey(request: Sent<CheckApiKeyRequest>): Promise<void>;
}

/** The client over HTTP: the page's fetch, or the one given (a test's, another runtime's). */
export function httpModelClient(fetchImpl?: typeof fetch): ModelClient {
  const withFetch = <Request extends object>(request: Request) =>
    fetchImpl ? { ...request, fetch: fetchImpl } : request;
  return {
    complete: async (request) => (await requestCompletion(withFetch(request)))[0],
    listModels: (request) => fetchModelList(withFetch(request)),
    checkKey: (request) => checkApiKey(withFetch(request)),
  };
}

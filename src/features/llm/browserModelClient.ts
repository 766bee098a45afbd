/**
 * The browser's model client as the saga context's default. It is made with the store, on the
 * home screen, but the HTTP client (requests, streaming, the provider's errors) is only
 * downloaded with the game's flows: the home screen never asks the model anything.
 */
import type { ModelClient } from './modelClient';

export function browserModelClient(): ModelClient {
  let loading: Promise<ModelClient> | null = null;
  const client = () =>
    (loading ??= import(/* webpackChunkName: "game-flow" */ './modelClient').then(
      ({ httpModelClient }) => httpModelClient(),
      (error: unknown) => {
        // A failed download is tried again with the next request (Try again).
        loading = null;
        throw error;
      },
    ));
  return {
    complete: async (request) => (await client()).complete(request),
    listModels: async (request) => (await client()).listModels(request),
    checkKey: async (request) => (await client()).checkKey(request),
  };
}

/**
 * The provider's own list of chat models for a key (DESIGN.md, "Model families, not model
 * ids"): read once, kept in the session by provider, server and key fingerprint, and gone by
 * both the key screen (while the key is typed: modelListSaga.ts) and the key check, so that the
 * model the key screen names is the one checked and played. Downloaded with the HTTP client it
 * reads through: the home screen's code holds only the waiting.
 */
import { call, cancelled, put, select } from 'typed-redux-saga';
import { ProviderError, isAbortError } from './errors';
import { chatModelsOf } from './models';
import { listsModelsEarly, providerById, type ModelPreset, type ProviderPreset } from './providers';
import {
  providerSessionActions,
  sameSource,
  selectModelList,
  type ModelListSource,
} from './providerSessionSlice';
import { fromContext } from './sagaContext';

const { modelListRead, modelListUnreadable } = providerSessionActions;

/**
 * The chat models of this source's list: the one known, else read now with the key. A list that
 * cannot be read (CORS, a key not allowed to list models, no answer) is an empty one, and the
 * session says so: a 401 as a key refused (a 403 may be a key that may chat but not list
 * models: the key check decides). An aborted read is thrown.
 */
export function* modelListFor(
  provider: ProviderPreset,
  source: ModelListSource,
  apiKey: string,
  signal: AbortSignal,
) {
  const known = yield* select(selectModelList);
  if (known.status === 'read' && sameSource(known.source, source)) return known.models;
  const client = yield* fromContext('model');
  const clock = yield* fromContext('clock');
  try {
    const request = { provider, baseUrl: source.baseUrl, apiKey, signal, now: () => clock.now() };
    const answer = yield* call([client, client.listModels], request);
    const models = chatModelsOf(provider, answer, clock.now());
    yield* put(modelListRead({ source, models }));
    return models;
  } catch (error) {
    if (isAbortError(error)) throw error;
    const keyRefused = error instanceof ProviderError && error.status === 401;
    yield* put(modelListUnreadable({ source, keyRefused }));
    return [] as ModelPreset[];
  }
}

/**
 * The list of the key being typed, where the provider answers the page (listsModelsEarly), if
 * that key is still the one typed; a read the flow gives up is aborted.
 */
export function* readTypedKeyModels(source: ModelListSource) {
  const provider = providerById(source.provider);
  const apiKey = (yield* fromContext('typedKey')).withFingerprint(source.keyFingerprint);
  if (!listsModelsEarly(provider) || !apiKey) return;
  const controller = new AbortController();
  try {
    yield* call(modelListFor, provider, source, apiKey, controller.signal);
  } finally {
    if (yield* cancelled()) controller.abort();
  }
}

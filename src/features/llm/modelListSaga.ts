/**
 * The provider's model list, read while the player types the key (issue 38, part 4): so that
 * the key screen names the model that will play before the key is submitted, instead of a
 * default the account may not have. Read once the typing has stopped for MODEL_LIST_QUIET_MS,
 * on the context's clock; a new key, provider or server typed meanwhile starts the wait again,
 * and aborts a read already sent. Only where the provider answers the page (listsModelsEarly):
 * a local or custom server is asked at the key check. A list that cannot be read changes
 * nothing but the status: the key check still decides about the key.
 */
import { call, cancelled, put, race, select, take, takeLeading } from 'typed-redux-saga';
import { quietFor } from '../../shared/waits';
import { ProviderError } from './errors';
import { chatModelsOf } from './models';
import { listsModelsEarly, providerById } from './providers';
import {
  providerSessionActions,
  selectModelList,
  sameSource,
  type ModelListSource,
} from './providerSessionSlice';
import { fromContext } from './sagaContext';

/** How long the key must stay as typed before its list is read. */
export const MODEL_LIST_QUIET_MS = 600;

const { keyTyped, modelListAsked, modelListRead, modelListUnreadable } = providerSessionActions;
type KeyTyped = ReturnType<typeof keyTyped>;

/** Reads the list for this source, unless it is known already or the key has changed since. */
function* readModelList(source: ModelListSource) {
  const provider = providerById(source.provider);
  if (!listsModelsEarly(provider) || source.keyFingerprint === '') return;
  const known = yield* select(selectModelList);
  if (known.status === 'read' && sameSource(known.source, source)) return;
  const apiKey = (yield* fromContext('typedKey')).withFingerprint(source.keyFingerprint);
  if (apiKey === null) return;

  yield* put(modelListAsked(source));
  const client = yield* fromContext('model');
  const clock = yield* fromContext('clock');
  const controller = new AbortController();
  try {
    const answer = yield* call([client, client.listModels], {
      provider,
      baseUrl: source.baseUrl,
      apiKey,
      signal: controller.signal,
    });
    yield* put(modelListRead({ source, models: chatModelsOf(provider, answer, clock.now()) }));
  } catch (error) {
    // Whatever went wrong, the default stays described. A 401 says the key looks wrong (a 403
    // may be a key that may chat but not list models: the key check decides).
    const keyRefused = error instanceof ProviderError && error.status === 401;
    yield* put(modelListUnreadable({ source, keyRefused }));
  } finally {
    if (yield* cancelled()) controller.abort();
  }
}

/**
 * The worker, from the first key typed to its list read: waits for the typing to stop, then
 * reads the list for the last key typed; a key typed while the read is under way aborts it
 * and waits again. Ends with the read.
 */
export function* readModelListAsTyped(first: KeyTyped) {
  let typed = first;
  for (;;) {
    typed = yield* quietFor<KeyTyped>(MODEL_LIST_QUIET_MS, keyTyped.type, typed);
    const { later } = yield* race({
      read: call(readModelList, typed.payload),
      later: take<KeyTyped>(keyTyped.type),
    });
    if (!later) return;
    typed = later;
  }
}

/** The watcher: one worker at a time, which hears every key typed while it runs. */
export function* modelListSaga() {
  yield* takeLeading(keyTyped.type, readModelListAsTyped);
}

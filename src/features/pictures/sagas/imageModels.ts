/**
 * Which models the player's provider draws with (issue 41, part 1), read from its own live list
 * with their key once the key is accepted: the text models' rules (llm/pictures/imageModels.ts),
 * the model chosen earlier kept while the list holds it, else the default with a notice.
 */
import { call, put, race, select } from 'typed-redux-saga';
import { selectGame } from '../../game';
import { PICTURE_PROVIDERS, imageModelsOf, providerById, settleImageModel } from '../../llm';
import { selectSettings } from '../../settings';
import { wait } from '../../../shared/waits';
import { picturesActions, selectImageModels } from '../picturesSlice';
import { fromContext } from './sagaContext';

/** The list's time: a provider that does not answer soon offers no pictures this session. */
export const IMAGE_MODELS_TIMEOUT_MS = 30_000;

export function* listImageModels() {
  const settings = yield* select(selectSettings);
  const provider = providerById(settings.provider);
  if (!PICTURE_PROVIDERS.has(provider.id)) {
    yield* put(picturesActions.imageModelsUnavailable({ provider: provider.id }));
    return;
  }
  const client = yield* fromContext('pictureClient');
  const clock = yield* fromContext('clock');
  const { apiKey } = yield* select(selectGame);
  const controller = new AbortController();
  try {
    const { answer } = yield* race({
      answer: call([client, client.listImageModels], {
        provider,
        baseUrl: settings.baseUrl,
        apiKey,
        signal: controller.signal,
        now: () => clock.now(),
      }),
      late: call(wait, IMAGE_MODELS_TIMEOUT_MS),
    });
    const models = answer === undefined ? [] : imageModelsOf(provider, answer, clock.now());
    const before = yield* select(selectImageModels);
    const chosen =
      before.status === 'listed' && before.provider === provider.id ? before.model : '';
    const settled = settleImageModel(provider, chosen, models);
    if (settled.model === null || models.length === 0) {
      yield* put(picturesActions.imageModelsUnavailable({ provider: provider.id }));
      return;
    }
    yield* put(
      picturesActions.imageModelsListed({
        provider: provider.id,
        models,
        model: settled.model,
        replaced: settled.replaced ? chosen : null,
      }),
    );
  } catch {
    // No list (no answer, a key not allowed to list): no pictures offered, and nothing else.
    yield* put(picturesActions.imageModelsUnavailable({ provider: provider.id }));
  } finally {
    controller.abort();
  }
}

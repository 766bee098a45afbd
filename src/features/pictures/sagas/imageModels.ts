/**
 * Which models the player's provider draws with (issue 41, part 1), read from its own live list
 * with their key once the key is accepted: the text models' rules (llm/pictures/imageModels.ts),
 * the model chosen earlier kept while the list holds it, else the default with a notice. A
 * Custom server's player names the model (settings' imageModel, llm namesImageModel): what its
 * list holds that looks like one is only suggested, and a list that cannot be read suggests
 * nothing.
 */
import { call, put, race, select } from 'typed-redux-saga';
import { selectGame } from '../../game';
import {
  PICTURE_PROVIDERS,
  imageModelsOf,
  namesImageModel,
  providerById,
  settleImageModel,
  type ImageModel,
  type ProviderPreset,
} from '../../llm';
import { selectSettings } from '../../settings';
import { wait } from '../../../shared/waits';
import { picturesActions, selectImageModels } from '../picturesSlice';
import { fromContext } from './sagaContext';

/** The list's time: a provider that does not answer soon offers no pictures this session. */
export const IMAGE_MODELS_TIMEOUT_MS = 30_000;

/** The image models the provider's list holds; none when it cannot be read in time. */
function* readImageModels(provider: ProviderPreset) {
  const client = yield* fromContext('pictureClient');
  const clock = yield* fromContext('clock');
  const { apiKey } = yield* select(selectGame);
  const { baseUrl } = yield* select(selectSettings);
  const controller = new AbortController();
  try {
    const { answer } = yield* race({
      answer: call([client, client.listImageModels], {
        provider,
        baseUrl,
        apiKey,
        signal: controller.signal,
        now: () => clock.now(),
      }),
      late: call(wait, IMAGE_MODELS_TIMEOUT_MS),
    });
    return answer === undefined ? [] : imageModelsOf(provider, answer, clock.now());
  } finally {
    controller.abort();
  }
}

/**
 * A Custom server: pictures are offered whatever its list holds, drawn with the model the player
 * names (settings' imageModel); what its list holds that looks like an image model is only
 * suggested, never named for them (a picture is billed to them).
 */
function* offerNamedModel(provider: ProviderPreset, models: ImageModel[]) {
  yield* put(
    picturesActions.imageModelsListed({
      provider: provider.id,
      models,
      model: '',
      replaced: null,
      named: true,
    }),
  );
}

export function* listImageModels() {
  const provider = providerById((yield* select(selectSettings)).provider);
  if (!PICTURE_PROVIDERS.has(provider.id)) {
    yield* put(picturesActions.imageModelsUnavailable({ provider: provider.id }));
    return;
  }
  let models: ImageModel[];
  try {
    models = yield* readImageModels(provider);
  } catch {
    // No list (no answer, a key not allowed to list): a preset offers no pictures.
    models = [];
  }
  if (namesImageModel(provider)) {
    yield* call(offerNamedModel, provider, models);
    return;
  }
  const before = yield* select(selectImageModels);
  const chosen = before.status === 'listed' && before.provider === provider.id ? before.model : '';
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
      named: false,
    }),
  );
}

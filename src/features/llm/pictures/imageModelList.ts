/**
 * The provider's list of models, read for its image models (issue 41, part 1): the one request
 * a key for a provider that draws makes before any story is illustrated, so it is apart from the
 * picture's own request (pictureClient.ts), whose code comes with the first picture.
 */
import { baseUrlOf, modelsUrl } from '../providers';
import { headersOf, send, type ModelListRequest } from '../requests';
import { parseJson } from '../failure';
import { MAX_ANSWER_BYTES, readBounded } from './pictureBytes';
import { PictureError, pictureRefusalOf } from './pictureError';
import { step } from './pictureFetch';

/**
 * The provider's list of models to find its image models in (imageModels.ts): GET /models, and
 * at OpenRouter GET /models?output_modalities=image, since its list holds only text models
 * unless asked. Rejects with a PictureError (a refusal read as a picture request's is).
 */
export async function fetchImageModelList(request: ModelListRequest): Promise<unknown> {
  const { provider, signal, apiKey, now = Date.now } = request;
  const base = modelsUrl(baseUrlOf(provider, request.baseUrl));
  const url = provider.draws === 'chat-modalities' ? `${base}?output_modalities=image` : base;
  return step(signal, async () => {
    const response = await send(request, url, { method: 'GET', headers: headersOf(request) });
    const text = new TextDecoder().decode(await readBounded(response, MAX_ANSWER_BYTES));
    if (!response.ok)
      throw pictureRefusalOf(response.status, text, response.headers, apiKey, now());
    const list = parseJson(text);
    if (list === undefined) throw new PictureError('other', 'The model list is not JSON');
    return list;
  });
}

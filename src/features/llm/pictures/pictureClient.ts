/**
 * One picture of the story, asked of the player's own provider with their own key (issue 41):
 * plain I/O with no waiting or retrying of its own (the game's picture saga does that, beside
 * the turn, never before it), cancelled through the signal the caller passes (with
 * AbortSignal.timeout(PICTURE_TIMEOUT_MS), a timeout is a PictureError of its own).
 *
 * What is sent, by how the provider draws (ProviderPreset.draws):
 * - 'images-api', POST {baseUrl}/images/generations with n: 1.
 *   OpenAI (platform.openai.com/docs/api-reference/images/create): its GPT image models always
 *   answer base64 (data[].b64_json) and refuse response_format (400 "Unknown parameter:
 *   'response_format'.", vercel/ai#6102), so none is sent; size 1536x1024, 1024x1024 or
 *   1024x1536 (each documented for them), and quality 'low', their cheapest: the game shows a
 *   picture at most a column wide, compressed to about 150 KB.
 *   Together (docs.together.ai, "Create image"; together-typescript ImageGenerateParams):
 *   width and height in pixels (1024x768, 1024x1024, 768x1024), response_format 'base64' (it
 *   may still answer with a URL) and output_format 'png' (its default is JPEG).
 *   A custom server: model, prompt, n and size only, as OpenAI's images API has them; it may
 *   answer base64 or a URL.
 * - 'chat-modalities', OpenRouter (openrouter.ai/docs, Image Generation): POST
 *   /chat/completions with modalities ['image', 'text'] (['image'] for a model that answers
 *   with pictures only, such as Flux) and image_config.aspect_ratio; the
 *   picture comes back as choices[0].message.images[].image_url.url, a base64 data: URL.
 * The answer is read into its picture by pictureAnswer.ts, where the request's `reader` says (the
 * page's client reads in the pictures' worker). A URL answer is fetched once, with the same
 * fetch and without the key (it belongs to the provider's server only), from https or the
 * provider's own origin; its bytes are checked like base64 ones (pictureBytes.ts) and handed
 * back as a Blob: never shown from the provider's URL.
 */
import { isAbortError } from '../errors';
import { baseUrlOf, chatCompletionsUrl } from '../providers';
import { headersOf, send, type ProviderRequest } from '../requests';
import { readHere, type Picture, type PictureReader } from './pictureAnswer';
import { MAX_ANSWER_BYTES, readBounded } from './pictureBytes';
import { PictureError, pictureRefusalOf } from './pictureError';
import { failureOfFetch, step } from './pictureFetch';
import { ASPECT_RATIOS, OPENAI_SIZES, TOGETHER_SIZES, type PictureShape } from './pictureShapes';

export type { Picture } from './pictureAnswer';
export type { PictureShape } from './pictureShapes';

/** How long the game gives a picture: image models take tens of seconds, slow ones minutes. */
export const PICTURE_TIMEOUT_MS = 120_000;

export interface PictureRequest extends ProviderRequest {
  /** The image model (imageModels.ts settles it from the provider's list). */
  model: string;
  /** What to draw (picturePrompt.ts). */
  prompt: string;
  size: PictureShape;
  /** The model answers with pictures only (ImageModel.drawsOnly): modalities ['image']. */
  drawsOnly?: boolean;
  /** Where the answer is read (pictureAnswer.ts): where this is called unless it says. */
  reader?: PictureReader;
}

/** The endpoint and body of one picture request, by how the provider draws. */
function requestFor(request: PictureRequest): { url: string; body: Record<string, unknown> } {
  const { provider, model, prompt, size } = request;
  const base = baseUrlOf(provider, request.baseUrl);
  if (provider.draws === 'chat-modalities') {
    return {
      url: chatCompletionsUrl(base),
      body: {
        model,
        messages: [{ role: 'user', content: prompt }],
        modalities: request.drawsOnly ? ['image'] : ['image', 'text'],
        image_config: { aspect_ratio: ASPECT_RATIOS[size] },
      },
    };
  }
  const url = `${base}/images/generations`;
  const common = { model, prompt, n: 1 };
  if (provider.id === 'together') {
    return {
      url,
      body: { ...common, ...TOGETHER_SIZES[size], response_format: 'base64', output_format: 'png' },
    };
  }
  const quality = provider.id === 'openai' && /^gpt-image-/.test(model) ? { quality: 'low' } : {};
  return { url, body: { ...common, size: OPENAI_SIZES[size], ...quality } };
}

/** The URL a picture answer names, if the page may fetch it: https, or the provider's origin. */
function fetchableUrl(url: string, base: string): URL | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:') return parsed;
    return parsed.origin === new URL(base).origin ? parsed : null;
  } catch {
    return null;
  }
}

/** A picture the answer names by URL: fetched once, without the key, and checked. */
async function fetchPicture(request: PictureRequest, url: string): Promise<Picture> {
  const base = baseUrlOf(request.provider, request.baseUrl);
  const target = fetchableUrl(url, base);
  if (target === null) {
    throw new PictureError('notAnImage', `The answer names a picture the game may not fetch`);
  }
  const doFetch = request.fetch ?? globalThis.fetch.bind(globalThis);
  let response: Response;
  try {
    response = await doFetch(target.href, { signal: request.signal });
  } catch (error) {
    if (request.signal.aborted || isAbortError(error)) throw failureOfFetch(error, request.signal);
    throw new PictureError('unreachable', `Could not fetch the picture from ${target.origin}`, {
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new PictureError('notAnImage', `The picture's address answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  return (request.reader ?? readHere).picture(response);
}

/**
 * One picture, as a Blob of checked image bytes. Rejects with a PictureError of the kind the
 * game tells the player (pictureError.ts), or the fetch's AbortError when the caller aborted.
 */
export async function requestPicture(request: PictureRequest): Promise<Picture> {
  const { provider, signal, apiKey, now = Date.now } = request;
  const drawing = provider.draws;
  if (drawing === null) {
    throw new PictureError('retired', `${provider.label} draws no pictures`);
  }
  const { url, body } = requestFor(request);
  return step(signal, async () => {
    const response = await send(request, url, {
      method: 'POST',
      headers: { ...headersOf(request), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      const text = new TextDecoder().decode(await readBounded(response, MAX_ANSWER_BYTES));
      throw pictureRefusalOf(response.status, text, response.headers, apiKey, now());
    }
    const answer = await (request.reader ?? readHere).answer(response, drawing, apiKey);
    if (!('url' in answer)) return answer.picture;
    const { url: named, ...revised } = answer;
    return { ...(await fetchPicture(request, named)), ...revised };
  });
}

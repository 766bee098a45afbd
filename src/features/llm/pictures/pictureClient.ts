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
import { isAbortError, ProviderUnreachableError } from '../errors';
import { baseUrlOf, chatCompletionsUrl, modelsUrl } from '../providers';
import { headersOf, send, type ModelListRequest, type ProviderRequest } from '../requests';
import { parseJson } from '../failure';
import { MAX_ANSWER_BYTES, readHere, type Picture, type PictureReader } from './pictureAnswer';
import { readBounded } from './pictureBytes';
import { PictureError, pictureRefusalOf } from './pictureError';

export type { Picture } from './pictureAnswer';

/** How long the game gives a picture: image models take tens of seconds, slow ones minutes. */
export const PICTURE_TIMEOUT_MS = 120_000;

/** The picture's shape: beside the text, a landscape; square and portrait where a page wants. */
export type PictureShape = 'landscape' | 'square' | 'portrait';

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

const OPENAI_SIZES: Readonly<Record<PictureShape, string>> = {
  landscape: '1536x1024',
  square: '1024x1024',
  portrait: '1024x1536',
};
const TOGETHER_SIZES: Readonly<Record<PictureShape, { width: number; height: number }>> = {
  landscape: { width: 1024, height: 768 },
  square: { width: 1024, height: 1024 },
  portrait: { width: 768, height: 1024 },
};
const ASPECT_RATIOS: Readonly<Record<PictureShape, string>> = {
  landscape: '3:2',
  square: '1:1',
  portrait: '2:3',
};

/**
 * The aspect ratio of a landscape picture as the provider draws it (CSS aspect-ratio): what a
 * picture's place keeps while it comes. Together draws 1024x768; the others 3:2.
 */
export function pictureRatio(providerId: string): string {
  const { width, height } =
    providerId === 'together' ? TOGETHER_SIZES.landscape : { width: 3, height: 2 };
  return `${width} / ${height}`;
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

/** A rejection of the request's own fetch, read: a timeout, an abort, or no answer at all. */
function failureOfFetch(error: unknown, signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (signal.aborted && (reason as { name?: unknown } | null)?.name === 'TimeoutError') {
    return new PictureError('timeout', 'The picture took longer than its time', { cause: error });
  }
  if (signal.aborted || isAbortError(error)) return error;
  if (error instanceof ProviderUnreachableError) {
    return new PictureError('unreachable', error.message, { cause: error });
  }
  // A connection dropped while the answer was read (fetch's TypeError).
  if (error instanceof TypeError) {
    return new PictureError('unreachable', 'The answer broke off', { cause: error });
  }
  return error;
}

/** Runs a step of the request, its fetch failures read as picture failures. */
async function step<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PictureError) throw error;
    throw failureOfFetch(error, signal);
  }
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

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
 * A URL answer is fetched once, with the same fetch and without the key (it belongs to the
 * provider's server only), from https or the provider's own origin; its bytes are checked like
 * base64 ones (pictureBytes.ts) and handed back as a Blob: never shown from the provider's URL.
 */
import { isAbortError, ProviderUnreachableError } from '../errors';
import { parseJson, redactKey, textOf } from '../failure';
import { baseUrlOf, chatCompletionsUrl, modelsUrl } from '../providers';
import { headersOf, send, type ModelListRequest, type ProviderRequest } from '../requests';
import {
  MAX_PICTURE_BYTES,
  base64Bytes,
  dataUrlPicture,
  pictureOf,
  readBounded,
  type PictureMediaType,
} from './pictureBytes';
import { PictureError, pictureRefusalOf } from './pictureError';

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
}

export interface Picture {
  image: Blob;
  mediaType: PictureMediaType;
  /** The prompt as the provider rewrote it, where it says (DALL·E 3-style servers did). */
  revisedPrompt?: string;
}

/** What a JSON answer (base64 of a picture at most MAX_PICTURE_BYTES) may be, at most. */
const MAX_ANSWER_BYTES = Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 64 * 1024;

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
  const bytes = await readBounded(response, MAX_PICTURE_BYTES);
  return pictureOf(bytes, response.headers.get('Content-Type') ?? '');
}

type Listing = Record<string, unknown>;
const objectOf = (value: unknown): Listing | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Listing) : null;

/** The first picture of an images API answer: {data: [{b64_json | url, revised_prompt?}]}. */
async function imagesApiPicture(request: PictureRequest, answer: Listing): Promise<Picture> {
  const data = Array.isArray(answer.data) ? objectOf(answer.data[0]) : null;
  const revised = textOf(data?.revised_prompt);
  const revisedPrompt = revised === null ? {} : { revisedPrompt: revised };
  if (typeof data?.b64_json === 'string') {
    return { ...pictureOf(base64Bytes(data.b64_json), null), ...revisedPrompt };
  }
  if (typeof data?.url === 'string') {
    return { ...(await fetchPicture(request, data.url)), ...revisedPrompt };
  }
  throw new PictureError('notAnImage', 'The answer holds no picture');
}

/**
 * The first picture of a chat completion asked for images: message.images[].image_url.url, a
 * data: URL (or a URL, fetched once). A reply with words and no picture is the model's refusal
 * when the provider says its filter stopped it (finish_reason content_filter), else no picture.
 */
async function chatPicture(request: PictureRequest, answer: Listing): Promise<Picture> {
  const choice = Array.isArray(answer.choices) ? objectOf(answer.choices[0]) : null;
  const message = objectOf(choice?.message);
  const images = Array.isArray(message?.images) ? message.images : [];
  const url = objectOf(objectOf(images[0])?.image_url)?.url;
  if (typeof url === 'string' && url.startsWith('data:')) return dataUrlPicture(url);
  if (typeof url === 'string') return fetchPicture(request, url);
  const said = redactKey(textOf(message?.content) ?? 'nothing', request.apiKey).slice(0, 300);
  const kind = choice?.finish_reason === 'content_filter' ? 'refused' : 'notAnImage';
  throw new PictureError(kind, `The model drew no picture; it said: ${said}`, {
    providerMessage: textOf(message?.content) === null ? null : said,
  });
}

/**
 * One picture, as a Blob of checked image bytes. Rejects with a PictureError of the kind the
 * game tells the player (pictureError.ts), or the fetch's AbortError when the caller aborted.
 */
export async function requestPicture(request: PictureRequest): Promise<Picture> {
  const { provider, signal, apiKey, now = Date.now } = request;
  if (provider.draws === null) {
    throw new PictureError('retired', `${provider.label} draws no pictures`);
  }
  const { url, body } = requestFor(request);
  return step(signal, async () => {
    const response = await send(request, url, {
      method: 'POST',
      headers: { ...headersOf(request), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = new TextDecoder().decode(await readBounded(response, MAX_ANSWER_BYTES));
    if (!response.ok)
      throw pictureRefusalOf(response.status, text, response.headers, apiKey, now());
    const answer = objectOf(parseJson(text));
    if (answer === null) {
      throw new PictureError('notAnImage', `The answer is not JSON: ${text.slice(0, 80)}`);
    }
    return provider.draws === 'chat-modalities'
      ? chatPicture(request, answer)
      : imagesApiPicture(request, answer);
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

/**
 * A picture request's answer read into a picture (issue 41, parts 5 and 6): plain reading with
 * no fetch of its own, so that it runs wherever the caller says. The page's picture client runs
 * it in the pictures' worker (features/pictures/work), since reading a gpt-image answer is
 * megabytes of JSON and base64 that would otherwise take the page's main thread while the story
 * plays; a test, Deno or a browser without the worker runs it where it is.
 *
 * - An images API answer: {data: [{b64_json | url, revised_prompt?}]}.
 * - A chat completion asked for images (OpenRouter): choices[0].message.images[].image_url.url,
 *   a base64 data: URL, or a URL. A reply with words and no picture is the model's refusal
 *   when the provider says its filter stopped it (finish_reason content_filter), else no picture.
 * A URL is handed back to be fetched once by the caller (pictureClient.ts), never shown.
 */
import { parseJson, redactKey, textOf } from '../failure';
import type { ProviderPreset } from '../providers';
import {
  MAX_ANSWER_BYTES,
  MAX_PICTURE_BYTES,
  base64Bytes,
  dataUrlPicture,
  pictureOf,
  readBounded,
  type PictureMediaType,
} from './pictureBytes';
import { PictureError } from './pictureError';

export interface Picture {
  image: Blob;
  mediaType: PictureMediaType;
  /** The prompt as the provider rewrote it, where it says (DALL·E 3-style servers did). */
  revisedPrompt?: string;
}

/** How the provider answers with a picture (ProviderPreset.draws, for one that draws). */
export type PictureDrawing = NonNullable<ProviderPreset['draws']>;

/** What an answer holds: the picture, or the URL it is to be fetched from. */
export type PictureAnswer = { picture: Picture } | { url: string; revisedPrompt?: string };

/**
 * Where a picture's answer and a picture fetched by URL are read: here (readHere), or in a
 * worker the caller runs (the same functions, there).
 */
export interface PictureReader {
  /** A successful answer's body, read into its picture or the URL it names. */
  answer(response: Response, drawing: PictureDrawing, apiKey: string): Promise<PictureAnswer>;
  /** A picture fetched by its URL: its bytes, bounded and checked. */
  picture(response: Response): Promise<Picture>;
}

type Listing = Record<string, unknown>;
const objectOf = (value: unknown): Listing | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Listing) : null;

function imagesApiAnswer(answer: Listing): PictureAnswer {
  const data = Array.isArray(answer.data) ? objectOf(answer.data[0]) : null;
  const revised = textOf(data?.revised_prompt);
  const revisedPrompt = revised === null ? {} : { revisedPrompt: revised };
  if (typeof data?.b64_json === 'string') {
    return { picture: { ...pictureOf(base64Bytes(data.b64_json), null), ...revisedPrompt } };
  }
  if (typeof data?.url === 'string') return { url: data.url, ...revisedPrompt };
  throw new PictureError('notAnImage', 'The answer holds no picture');
}

function chatAnswer(answer: Listing, apiKey: string): PictureAnswer {
  const choice = Array.isArray(answer.choices) ? objectOf(answer.choices[0]) : null;
  const message = objectOf(choice?.message);
  const images = Array.isArray(message?.images) ? message.images : [];
  const url = objectOf(objectOf(images[0])?.image_url)?.url;
  if (typeof url === 'string' && url.startsWith('data:')) return { picture: dataUrlPicture(url) };
  if (typeof url === 'string') return { url };
  const said = redactKey(textOf(message?.content) ?? 'nothing', apiKey).slice(0, 300);
  const kind = choice?.finish_reason === 'content_filter' ? 'refused' : 'notAnImage';
  throw new PictureError(kind, `The model drew no picture; it said: ${said}`, {
    providerMessage: textOf(message?.content) === null ? null : said,
  });
}

/** An answer's text read into its picture or the URL it names; a PictureError otherwise. */
export function pictureInAnswer(text: string, drawing: PictureDrawing, apiKey: string) {
  const answer = objectOf(parseJson(text));
  if (answer === null) {
    throw new PictureError('notAnImage', `The answer is not JSON: ${text.slice(0, 80)}`);
  }
  return drawing === 'chat-modalities' ? chatAnswer(answer, apiKey) : imagesApiAnswer(answer);
}

/** The reader that reads where it is called: a test's, Deno's, a page without the worker. */
export const readHere: PictureReader = {
  answer: async (response, drawing, apiKey) =>
    pictureInAnswer(
      new TextDecoder().decode(await readBounded(response, MAX_ANSWER_BYTES)),
      drawing,
      apiKey,
    ),
  picture: async (response) =>
    pictureOf(
      await readBounded(response, MAX_PICTURE_BYTES),
      response.headers.get('Content-Type') ?? '',
    ),
};

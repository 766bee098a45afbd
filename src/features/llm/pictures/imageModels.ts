/**
 * Which models a provider can draw a picture with (issue 41), read from its own live model list
 * as GET /models returns it, and the one to draw with; plain functions, as models.ts is for the
 * chat models. The rules follow each provider's list:
 * - OpenAI: the GPT image models (gpt-image-1, -1-mini, -1.5, -2, -2.5-flare, -2.5-sunburst and
 *   their dated snapshots, chatgpt-image-latest). dall-e-2 and dall-e-3 were shut down on
 *   2026-05-12 and are never offered, nor is a model whose shutdown_date has passed.
 * - Together: the models whose `type` is 'image'.
 * - OpenRouter: the models whose architecture.output_modalities include 'image' (its list holds
 *   them only when asked with ?output_modalities=image: pictureClient.ts asks so).
 * - A custom server: whatever its list marks as drawing (either shape above) or names as an
 *   image model; the player may type one the list does not hold.
 * - Groq and a local server: none.
 * No price per picture is given: none of these lists states one. OpenRouter's pricing.image is
 * per input image and its pricing.image_output per output-image token (Google prices a
 * 1024x1024 picture of Gemini 2.5 Flash Image at 1,290 such tokens); OpenAI's list has no
 * prices and prices its pictures by token; Together's figures (input, output, base) name no
 * unit for an image model.
 */
import { newerFirst, shutDown } from '../models';
import type { ProviderId, ProviderPreset } from '../providers';

export interface ImageModel {
  id: string;
  /** Shown in the picture model's dropdown: the list's own name, else the id. */
  label: string;
  /** When the list says the model was made (seconds): newer first among equals. */
  created?: number;
  /**
   * It answers with pictures only, no words (OpenRouter's Flux and Sourceful models): asked with
   * modalities ['image'], as OpenRouter's docs say for them, not ['image', 'text'].
   */
  drawsOnly?: true;
}

type Listing = Readonly<Record<string, unknown>>;

/** OpenAI's image models by id; the DALL·E ids are retired (see above). */
const OPENAI_IMAGE = /^(gpt-image-|chatgpt-image-)/;
/** Ids a custom server may list for a drawing model. */
const IMAGE_WORDS = /gpt-image|dall-e|flux|stable-diffusion|sdxl|\bsd3|imagen|image-gen/i;

/**
 * The families the default picture model is chosen from, cheapest and quickest first; the newest
 * member of the first family the list holds. A dated snapshot is not the default when its
 * alias is listed (the alias ends the id).
 */
const PREFERRED: Readonly<Partial<Record<ProviderId, readonly RegExp[]>>> = {
  openai: [/^gpt-image-[\d.]+-flare$/, /^gpt-image-[\d.]+-mini$/, /^gpt-image-[\d.]+$/],
  together: [/flux[^/]*schnell$/i, /flux/i],
  openrouter: [/^google\/gemini-[\d.]+-flash-image$/, /flash-image/],
};

const stringList = (value: unknown): readonly string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

const outputsOf = (entry: Listing) =>
  stringList((entry.architecture as Listing | null | undefined)?.output_modalities);

const outputsImages = (entry: Listing) => outputsOf(entry).includes('image');

const typedImage = (entry: Listing) =>
  typeof entry.type === 'string' && entry.type.toLowerCase() === 'image';

/** Whether one entry of this provider's list is a model that draws. */
function draws(provider: ProviderPreset, entry: Listing, id: string): boolean {
  switch (provider.id) {
    case 'openai':
      return OPENAI_IMAGE.test(id);
    case 'together':
      return typedImage(entry);
    case 'openrouter':
      return outputsImages(entry);
    case 'custom':
      return typedImage(entry) || outputsImages(entry) || IMAGE_WORDS.test(id);
    default:
      return false;
  }
}

function labelOf(entry: Listing, id: string): string {
  const named = [entry.name, entry.display_name].find(
    (name): name is string => typeof name === 'string' && name.trim() !== '',
  );
  return named?.trim() ?? id;
}

/**
 * The image models in a provider's answer to GET /models ({data: [...]}, or a bare array as
 * Together sends), each once, by id; none for a provider that does not draw.
 */
export function imageModelsOf(
  provider: ProviderPreset,
  answer: unknown,
  now: number = Date.now(),
): ImageModel[] {
  if (provider.draws === null) return [];
  const entries = Array.isArray(answer)
    ? (answer as unknown[])
    : ((answer as { data?: unknown } | null)?.data ?? []);
  if (!Array.isArray(entries)) return [];
  const models = new Map<string, ImageModel>();
  for (const entry of entries as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const listing = entry as Listing;
    const id = typeof listing.id === 'string' ? listing.id.trim() : '';
    if (id === '' || models.has(id) || !draws(provider, listing, id)) continue;
    if (shutDown(listing, now) || listing.active === false) continue;
    const created = typeof listing.created === 'number' ? { created: listing.created } : {};
    const outputs = outputsOf(listing);
    const drawsOnly =
      outputs.length > 0 && !outputs.includes('text') ? ({ drawsOnly: true } as const) : {};
    models.set(id, { id, label: labelOf(listing, id), ...created, ...drawsOnly });
  }
  return [...models.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The picture model to offer when the player has chosen none: the newest member of the first
 * preferred family the list holds, else the newest listed; null when nothing is listed.
 */
export function defaultImageModel(
  provider: ProviderPreset,
  listed: readonly ImageModel[],
): string | null {
  for (const family of PREFERRED[provider.id] ?? []) {
    const members = listed.filter((model) => family.test(model.id));
    if (members.length > 0) return [...members].sort(newerFirst)[0]!.id;
  }
  return [...listed].sort(newerFirst)[0]?.id ?? null;
}

/**
 * Whether the player names the image model: a Custom server, whose list may hold image models
 * under any id (llm's draws() above only guesses them), and whose players know what they run.
 */
export const namesImageModel = (provider: ProviderPreset): boolean => provider.id === 'custom';

export interface SettledImageModel {
  /** The model to draw with; null when none is listed and none was named. */
  model: string | null;
  /** The chosen model is not among those the provider lists: the default stands in. */
  replaced: boolean;
}

/**
 * The model to draw with, by the text models' rules (models.ts, settleModel): the chosen one if
 * the provider lists it; an empty list (no /models, or one that cannot be read) decides nothing,
 * so a model the player named is kept; a chosen model the list no longer holds is retired or
 * refused, and the default stands in, with `replaced` so that the game says so.
 */
export function settleImageModel(
  provider: ProviderPreset,
  chosen: string,
  listed: readonly ImageModel[],
): SettledImageModel {
  const named = chosen.trim();
  if (listed.length === 0) return { model: named === '' ? null : named, replaced: false };
  if (listed.some((model) => model.id === named)) return { model: named, replaced: false };
  return { model: defaultImageModel(provider, listed), replaced: named !== '' };
}

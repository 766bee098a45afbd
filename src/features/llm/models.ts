/**
 * The model dropdown's list, read from the provider's own GET /models (OpenAI-compatible, but
 * each provider adds fields of its own): only models that chat, the curated ones first. Plain
 * functions over the provider's answer; client.ts fetches it.
 */
import { modelOf, type ModelPreset, type ModelPrice, type ProviderPreset } from './providers';

/** Ids of models that do something other than chat: speech, images, embeddings, safety. */
const NOT_CHAT =
  /whisper|tts|transcribe|speech|audio|realtime|embed|moderation|guard|safeguard|dall-e|image|sora|flux|stable-diffusion|rerank|\brank\b|bge-|babbage|davinci|computer-use|search-preview|codex/i;

/** Together's listing types that chat. */
const CHAT_TYPES = new Set(['chat', 'language']);

type Listing = Record<string, unknown>;

/** Ollama lists 'llama3.2:latest' for the model a player knows as 'llama3.2'. */
const untagged = (id: string) => id.replace(/:latest$/, '');
const sameModel = (a: string, b: string) => untagged(a) === untagged(b);

const stringList = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null;

/**
 * Whether the listing says the model is shut down by `now` (OpenAI's shutdown_date, a date; or
 * a time in seconds or a date under another provider's name for it).
 */
export function shutDown(entry: Readonly<Record<string, unknown>>, now: number): boolean {
  for (const field of ['shutdown_date', 'expiration_date', 'deprecation_date']) {
    const value = entry[field];
    const at =
      typeof value === 'number'
        ? value * 1000
        : typeof value === 'string'
          ? Date.parse(value)
          : NaN;
    if (!Number.isNaN(at) && at <= now) return true;
  }
  return false;
}

/** Whether one entry of a model list is a model the game can tell a story with. */
function chats(provider: ProviderPreset, entry: Listing, now: number): boolean {
  const id = entry.id as string;
  if (NOT_CHAT.test(id) || provider.notChatModels?.test(id)) return false;
  if (shutDown(entry, now)) return false;
  // Groq marks models it no longer serves.
  if (entry.active === false) return false;
  // Together types every model.
  if (typeof entry.type === 'string' && !CHAT_TYPES.has(entry.type.toLowerCase())) return false;
  // OpenRouter lists what goes in and what comes out.
  const architecture = (entry.architecture ?? {}) as Listing;
  const inputs = stringList(architecture.input_modalities);
  const outputs = stringList(architecture.output_modalities);
  if (inputs && !inputs.includes('text')) return false;
  if (outputs && outputs.some((output) => output !== 'text')) return false;
  return true;
}

function labelOf(entry: Listing, preset: ModelPreset | undefined): string {
  const named = [entry.name, entry.display_name].find(
    (name): name is string => typeof name === 'string' && name.trim() !== '',
  );
  return preset?.label ?? named?.trim() ?? (entry.id as string);
}

/** A price per token as OpenRouter writes it ("0.0000004", "0" for free); null otherwise. */
function usdPerToken(value: unknown): number | null {
  const text = typeof value === 'string' ? value.trim() : null;
  if (text === null || !/^\d+(\.\d+)?(e-?\d+)?$/i.test(text)) return null;
  const price = Number(text);
  return Number.isFinite(price) ? price : null;
}

/**
 * The price OpenRouter lists for a model (openrouter.ai/docs, List models: pricing.prompt and
 * pricing.completion, strings of US dollars per token). "-1" (a router whose price depends on
 * the model it picks), a missing or an unreadable figure: no price, never a guessed one.
 */
function priceOf(provider: ProviderPreset, entry: Listing): ModelPrice | null {
  if (!provider.listsPrices) return null;
  const pricing = entry.pricing as Listing | null | undefined;
  if (typeof pricing !== 'object' || pricing === null) return null;
  const promptUsdPerToken = usdPerToken(pricing.prompt);
  const replyUsdPerToken = usdPerToken(pricing.completion);
  if (promptUsdPerToken === null || replyUsdPerToken === null) return null;
  return { promptUsdPerToken, replyUsdPerToken };
}

/**
 * The chat models in a provider's answer to GET /models ({data: [...]}, or a bare array as
 * Together sends), each once: the preset's own models first in its order, then the rest by id.
 */
export function chatModelsOf(
  provider: ProviderPreset,
  answer: unknown,
  now: number = Date.now(),
): ModelPreset[] {
  const entries = Array.isArray(answer)
    ? (answer as unknown[])
    : ((answer as { data?: unknown } | null)?.data ?? []);
  if (!Array.isArray(entries)) return [];
  const seen = new Set<string>();
  const models: ModelPreset[] = [];
  for (const entry of entries as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const listing = entry as Listing;
    if (typeof listing.id !== 'string' || listing.id.trim() === '' || seen.has(listing.id))
      continue;
    if (!chats(provider, listing, now)) continue;
    seen.add(listing.id);
    const preset = provider.models.find((model) => sameModel(model.id, listing.id as string));
    const created = typeof listing.created === 'number' ? { created: listing.created } : {};
    const price = priceOf(provider, listing);
    models.push({
      id: listing.id,
      label: labelOf(listing, preset),
      ...created,
      ...(price && { price }),
    });
  }
  const rank = (id: string) => {
    const index = provider.models.findIndex((model) => sameModel(model.id, id));
    return index === -1 ? provider.models.length : index;
  };
  return models.sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

/** The version numbers in an id, to tell newer from older: gpt-5.6-terra > gpt-5.4-mini. */
function versionOf(id: string): number[] {
  return (id.match(/\d+/g) ?? []).map(Number);
}

export function newerFirst(
  a: Pick<ModelPreset, 'id' | 'created'>,
  b: Pick<ModelPreset, 'id' | 'created'>,
): number {
  const [va, vb] = [versionOf(a.id), versionOf(b.id)];
  for (let i = 0; i < Math.max(va.length, vb.length); i += 1) {
    const difference = (vb[i] ?? -1) - (va[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return (b.created ?? 0) - (a.created ?? 0) || a.id.localeCompare(b.id);
}

/**
 * The default model as the provider's live list has it (DESIGN.md, "Model families, not model
 * ids"): the newest member of the first preferred family the list holds; else the built-in
 * default if listed, else the preset's first listed model, else the first listed. The built-in
 * default when nothing is listed.
 */
export function chosenDefaultModel(
  provider: ProviderPreset,
  listed: readonly ModelPreset[],
): string {
  if (listed.length === 0) return provider.defaultModel;
  for (const family of provider.preferredModels ?? []) {
    const members = listed.filter((entry) => family.test(entry.id));
    if (members.length > 0) return [...members].sort(newerFirst)[0]!.id;
  }
  const curated = [provider.defaultModel, ...provider.models.map((entry) => entry.id)];
  return curated.find((id) => listed.some((entry) => sameModel(entry.id, id))) ?? listed[0]!.id;
}

export interface SettledModel {
  model: string;
  /** The chosen model is not among those the provider lists: the default stands in. */
  replaced: boolean;
}

/**
 * The model to play with. The chosen one if the provider lists it; an empty list (no /models)
 * decides nothing. No choice made: the default chosen from the list. A model the provider no
 * longer lists is a retired one, whether it was picked from a list (Groq, OpenAI) or typed
 * (OpenRouter, Together, a local or custom server): the chosen default stands in, and the
 * player is told both names.
 */
export function settleModel(
  provider: ProviderPreset,
  chosen: string,
  listed: readonly ModelPreset[],
): SettledModel {
  if (chosen.trim() === '') return { model: chosenDefaultModel(provider, listed), replaced: false };
  const model = modelOf(provider, chosen);
  const served = listed.some((entry) => sameModel(entry.id, model));
  if (listed.length === 0 || served) return { model, replaced: false };
  return { model: chosenDefaultModel(provider, listed), replaced: true };
}

/**
 * What the key screen names as the model (issue 38, part 4). Until the provider's list is
 * known, the default is described (`playing` null: "the newest {family} on your account"),
 * never named by an id the account may not have; the player's own choice is shown as chosen.
 * Once it is known: the model that will play, as the key check settles it, the default chosen
 * from the list, and the preferred family it is the newest of (null when it came from a later
 * family, or the preset names none).
 */
export interface ModelNaming {
  playing: string | null;
  default: string | null;
  newestOf: string | null;
}

export function modelNaming(
  provider: ProviderPreset,
  chosen: string,
  listed: readonly ModelPreset[] | null,
): ModelNaming {
  const family = provider.defaultFamily ?? null;
  if (!listed?.length) return { playing: chosen.trim() || null, default: null, newestOf: family };
  const fallback = chosenDefaultModel(provider, listed);
  return {
    playing: settleModel(provider, chosen, listed).model,
    default: fallback,
    newestOf: provider.preferredModels?.[0]?.test(fallback) ? family : null,
  };
}

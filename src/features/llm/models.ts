/**
 * The model dropdown's list, read from the provider's own GET /models (OpenAI-compatible, but
 * each provider adds fields of its own): only models that chat, the curated ones first. Plain
 * functions over the provider's answer; client.ts fetches it.
 */
import { modelOf, type ModelPreset, type ProviderPreset } from './providers';

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

/** Whether one entry of a model list is a model the game can tell a story with. */
function chats(provider: ProviderPreset, entry: Listing): boolean {
  const id = entry.id as string;
  if (NOT_CHAT.test(id) || provider.notChatModels?.test(id)) return false;
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

/**
 * The chat models in a provider's answer to GET /models ({data: [...]}, or a bare array as
 * Together sends), each once: the preset's own models first in its order, then the rest by id.
 */
export function chatModelsOf(provider: ProviderPreset, answer: unknown): ModelPreset[] {
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
    if (!chats(provider, listing)) continue;
    seen.add(listing.id);
    const preset = provider.models.find((model) => sameModel(model.id, listing.id as string));
    models.push({ id: listing.id, label: labelOf(listing, preset) });
  }
  const rank = (id: string) => {
    const index = provider.models.findIndex((model) => sameModel(model.id, id));
    return index === -1 ? provider.models.length : index;
  };
  return models.sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

export interface SettledModel {
  model: string;
  /** The chosen model is not among those the provider lists: the default stands in. */
  replaced: boolean;
}

/**
 * The model to play with. The chosen one if the provider lists it; an empty list (no /models)
 * decides nothing. Where the player picks from the provider's list (Groq, OpenAI), a model it
 * no longer lists is a retired one: the curated default stands in, or the first of the
 * preset's models that is listed. Where the player types an id (OpenRouter, Together, a local
 * or custom server), their choice stays, and the key check says if it is not served.
 */
export function settleModel(
  provider: ProviderPreset,
  chosen: string,
  listed: readonly ModelPreset[],
): SettledModel {
  const model = modelOf(provider, chosen);
  const served = listed.some((entry) => sameModel(entry.id, model));
  if (listed.length === 0 || served || provider.editableModel) return { model, replaced: false };
  const curated = [provider.defaultModel, ...provider.models.map((entry) => entry.id)];
  const standIn = curated.find((id) => listed.some((entry) => entry.id === id)) ?? listed[0]!.id;
  return { model: standIn, replaced: true };
}

/**
 * Language-model providers the player can bring a key for (DESIGN.md, "Language model"). All
 * speak OpenAI-compatible chat completions; what differs between them is data, kept here: where
 * they live (in common/connectSources.ts, as the server's security policy lists the same hosts),
 * a short built-in list of models (the fallback when the provider's own GET /models cannot be
 * read), the curated default, and what each documents about JSON mode, streaming and reasoning.
 * What a provider refuses at run time is learnt per session (capabilities.ts).
 */
import { PRESET_BASE_URLS } from '../../../common/connectSources';

/**
 * Room to think, in tokens, for a model that reasons with no count of its own: reasoning tokens
 * count toward the output limit. Free tiers count the whole limit against the minute when the
 * request arrives (Groq: prompt + max_completion_tokens of 8,000 a minute), so the room is small
 * and the effort asked for is the family's lowest: a story turn reserves at most 4,000 tokens.
 */
export const REASONING_ALLOWANCE_TOKENS = 700;

export type ProviderId = 'groq' | 'openai' | 'openrouter' | 'together' | 'local' | 'custom';

export interface ModelPreset {
  id: string;
  /** Shown in the model dropdown. */
  label: string;
  /** When the provider says the model was made (seconds), from its list: newer first. */
  created?: number;
  /**
   * What the provider's list says the model costs, in US dollars per token (OpenRouter's
   * pricing); absent where the list names no price. Never guessed.
   */
  price?: ModelPrice;
}

/** A model's price per token, as its provider lists it; 0 for a free model. */
export interface ModelPrice {
  promptUsdPerToken: number;
  replyUsdPerToken: number;
}

/** A line of help shown under the provider selector: a catalogue id and its English text. */
export interface ProviderHint {
  messageId: string;
  defaultMessage: string;
}

/**
 * A family of models and the parameters it takes (DESIGN.md, "Model families, not model ids"):
 * providers retire model ids on their own calendar, but a family's rules hold for its members,
 * old and new.
 */
export interface ModelFamily {
  /** The ids the family covers; the first family of the preset whose match fits decides. */
  match: RegExp;
  /** The output limit's name; the preset's outputLimit when absent. */
  tokenField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * The reasoning efforts it takes, lowest first; the lowest is asked for, so that a turn
   * stays quick ('none' switches thinking off). Absent: no effort is sent.
   */
  efforts?: readonly string[];
  /**
   * How many tokens it thinks at the effort asked for (counted in the output limit, so the
   * reply gets that much more room); 0 for a model that answers at once. Absent: a reasoning
   * allowance when an effort other than 'none' is sent, none otherwise.
   */
  thinkingTokens?: number;
  /**
   * When a temperature may be sent: 'any'; 'withoutThinking', only together with effort 'none'
   * (OpenAI's GPT-5.1 and later); 'default', never (only the provider's default is accepted).
   */
  temperature?: 'any' | 'withoutThinking' | 'default';
}

export interface ProviderPreset {
  id: ProviderId;
  /** A product name, the same in every interface language (English where it is not one). */
  label: string;
  /** For a label that is words rather than a product name: its catalogue id. */
  labelMessageId?: string;
  /** Ends in /v1 (or the provider's equivalent); chat completions and models live under it. */
  baseUrl: string;
  /** The built-in list: offered before the provider's own list is read, and if it cannot be. */
  models: readonly ModelPreset[];
  /**
   * The default when the provider's own list cannot be read: a member of the first preferred
   * family. With the list, the default is chosen from it (preferredModels).
   */
  defaultModel: string;
  /**
   * The families the default is chosen from, in order of preference: the first that has a
   * member in the provider's live list gives the default, its newest member first (models.ts).
   */
  preferredModels?: readonly RegExp[];
  /**
   * The first preferred family in words (a product name, the same in every language): the key
   * screen names the default by it until the provider's list says which model it is.
   */
  defaultFamily?: string;
  /** Where a player gets a key; absent when the provider has no such page. */
  keyPortalUrl?: string;
  /** Without a key no Authorization header is sent, unless the provider requires one. */
  requiresKey: boolean;
  /** Accepts response_format {type: 'json_object'}. */
  supportsJsonMode: boolean;
  /** JSON mode may be combined with stream: true (Groq documents that it may not). */
  jsonModeWhileStreaming: boolean;
  /** Accepts stream: true and answers with server-sent events. */
  supportsStreaming: boolean;
  /**
   * When a streamed reply says what it used (usage.ts): 'on-request', only when asked with
   * stream_options {include_usage: true} (OpenAI's way, and the guess for a server the game
   * does not know: one that refuses the parameter teaches so); 'unasked', without it (Groq's
   * x_groq in the finishing chunk, OpenRouter's final chunk), so it is not sent.
   */
  streamUsage: 'on-request' | 'unasked';
  /** Its model list gives prices in OpenRouter's shape (pricing.prompt and .completion). */
  listsPrices?: boolean;
  /**
   * The name of the output limit for a model no family names; OpenAI's reasoning models refuse
   * the older max_tokens, and OpenAI and Groq document it as deprecated.
   */
  outputLimit: 'max_tokens' | 'max_completion_tokens';
  /** How reasoning effort is asked for: OpenAI's reasoning_effort, OpenRouter's reasoning. */
  reasoningControl: 'reasoning_effort' | 'reasoning' | null;
  /** The model families and their parameters, as the provider documents them (ModelFamily). */
  families: readonly ModelFamily[];
  /**
   * A model no family names probably reasons (OpenAI's next family does): it gets room to
   * think. Elsewhere such a model answers at once, and a free tier's budget is not spent on it.
   */
  unknownModelsThink?: boolean;
  /** Ids this provider lists that chat completions cannot serve, beyond the common ones. */
  notChatModels?: RegExp;
  /** The player may change the base URL (the 'Base URL' field is shown). */
  editableBaseUrl: boolean;
  /** The player may type a model id the list does not hold. */
  editableModel: boolean;
  hint?: ProviderHint;
  /**
   * How the provider draws a picture (issue 41, llm/pictures): 'images-api', POST
   * /images/generations (OpenAI, Together, and a custom server that has it); 'chat-modalities',
   * a chat completion asked for modalities ['image', 'text'] (OpenRouter); null, not at all.
   */
  draws: 'images-api' | 'chat-modalities' | null;
}

/**
 * SPEC.md section 9's "four models, the 70B default" read as today's Groq: its current family,
 * the strongest general model the default. Groq retired llama-3.3-70b-versatile and
 * llama-3.1-8b-instant on 2026-08-16 (console.groq.com/docs/deprecations) and recommends these.
 * JSON mode cannot be combined with streaming there (a 400): streamed turns repair the JSON on
 * the client instead. gpt-oss takes reasoning_effort low|medium|high, qwen3 none|default
 * (console.groq.com/docs/reasoning).
 */
const GROQ: ProviderPreset = {
  id: 'groq',
  label: 'Groq',
  baseUrl: PRESET_BASE_URLS.groq,
  models: [
    { id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B' },
    { id: 'openai/gpt-oss-20b', label: 'GPT-OSS 20B' },
    { id: 'qwen/qwen3.6-27b', label: 'Qwen3.6 27B' },
  ],
  defaultModel: 'openai/gpt-oss-120b',
  preferredModels: [/^openai\/gpt-oss-120b$/, /^openai\/gpt-oss-20b$/, /^qwen\/qwen3/],
  keyPortalUrl: 'https://console.groq.com/keys',
  requiresKey: true,
  supportsJsonMode: true,
  jsonModeWhileStreaming: false,
  supportsStreaming: true,
  // Usage comes in x_groq on the finishing chunk, unasked (usage.ts).
  streamUsage: 'unasked',
  // groq-python documents max_tokens as deprecated in favour of max_completion_tokens.
  outputLimit: 'max_completion_tokens',
  reasoningControl: 'reasoning_effort',
  families: [
    { match: /gpt-oss/, efforts: ['low', 'medium', 'high'] },
    { match: /qwen3/, efforts: ['none', 'default'] },
  ],
  editableBaseUrl: false,
  editableModel: false,
  draws: null,
};

/**
 * OpenAI as its API answers from 2026-12-12 (README, "Providers and their model families"):
 * the gpt-5, gpt-5-mini and gpt-5-nano snapshots are retired on 2026-12-11 and gpt-4.1-mini on
 * 2027-01-14, so the default is chosen from the live list by family: the newest small GPT-5.x
 * (gpt-5.6-terra, gpt-5.4-mini, ...), then gpt-4.1-mini while it lasts. GPT-5.1 and later take
 * reasoning_effort none|low|medium|high and a temperature only with effort none; the first
 * GPT-5 snapshots took minimal as their lowest and only the default temperature; every
 * reasoning model takes max_completion_tokens, and OpenAI documents max_tokens as deprecated.
 * The -pro models answer only on the Responses API. JSON mode needs the word JSON in the
 * messages, which the game's system prompts have in both languages.
 */
const OPENAI: ProviderPreset = {
  id: 'openai',
  label: 'OpenAI',
  baseUrl: PRESET_BASE_URLS.openai,
  models: [
    { id: 'gpt-5.6-terra', label: 'GPT-5.6 Terra' },
    { id: 'gpt-5.6-sol', label: 'GPT-5.6 Sol' },
    { id: 'gpt-5.4-mini', label: 'GPT-5.4 mini' },
    { id: 'gpt-5.6-luna', label: 'GPT-5.6 Luna' },
  ],
  defaultModel: 'gpt-5.6-terra',
  preferredModels: [/^gpt-5\.\d+-(terra|mini)$/, /^gpt-4\.1-mini$/],
  defaultFamily: 'GPT-5.x mini',
  keyPortalUrl: 'https://platform.openai.com/api-keys',
  requiresKey: true,
  supportsJsonMode: true,
  jsonModeWhileStreaming: true,
  supportsStreaming: true,
  streamUsage: 'on-request',
  outputLimit: 'max_completion_tokens',
  reasoningControl: 'reasoning_effort',
  families: [
    // Chat snapshots of a reasoning family answer at once and take the usual parameters.
    { match: /^gpt-5(\.\d+)?-chat/, thinkingTokens: 0 },
    // GPT-5.1 and later: thinking off with effort none, and a temperature only then.
    {
      match: /^gpt-5\.\d+/,
      efforts: ['none', 'low', 'medium', 'high'],
      temperature: 'withoutThinking',
    },
    // The first GPT-5 snapshots (retired 2026-12-11): minimal is their lowest.
    { match: /^gpt-5(-|$)/, efforts: ['minimal', 'low', 'medium', 'high'], temperature: 'default' },
    { match: /^o\d/, efforts: ['low', 'medium', 'high'], temperature: 'default' },
    { match: /^gpt-4/, thinkingTokens: 0 },
  ],
  unknownModelsThink: true,
  // Responses-only (the -pro and deep-research models) and completions-only (-instruct).
  notChatModels: /(^|-)pro($|-\d)|deep-research|-instruct\b/,
  editableBaseUrl: false,
  editableModel: false,
  draws: 'images-api',
};

/**
 * OpenRouter passes response_format on to the models that take it and drops what a model does
 * not support; reasoning is asked for with its own {reasoning: {effort}} object.
 */
const OPENROUTER: ProviderPreset = {
  id: 'openrouter',
  label: 'OpenRouter',
  baseUrl: PRESET_BASE_URLS.openrouter,
  models: [
    { id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B' },
    { id: 'meta-llama/llama-3.3-70b-instruct', label: 'Llama 3.3 70B Instruct' },
    { id: 'qwen/qwen3-235b-a22b-2507', label: 'Qwen3 235B A22B Instruct 2507' },
  ],
  defaultModel: 'openai/gpt-oss-120b',
  keyPortalUrl: 'https://openrouter.ai/keys',
  requiresKey: true,
  supportsJsonMode: true,
  jsonModeWhileStreaming: true,
  supportsStreaming: true,
  // Usage comes on the final chunk always; stream_options is deprecated there (usage.ts).
  streamUsage: 'unasked',
  listsPrices: true,
  outputLimit: 'max_tokens',
  reasoningControl: 'reasoning',
  families: [{ match: /gpt-oss|thinking|deepseek-r1/i, efforts: ['low', 'medium', 'high'] }],
  editableBaseUrl: false,
  editableModel: true,
  draws: 'chat-modalities',
};

/** Together documents JSON mode for whole replies; streamed ones are repaired on the client. */
const TOGETHER: ProviderPreset = {
  id: 'together',
  label: 'Together AI',
  baseUrl: PRESET_BASE_URLS.together,
  models: [
    { id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B' },
    { id: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', label: 'Llama 3.3 70B Instruct Turbo' },
    { id: 'Qwen/Qwen3-235B-A22B-Instruct-2507-tput', label: 'Qwen3 235B A22B Instruct 2507' },
  ],
  defaultModel: 'openai/gpt-oss-120b',
  keyPortalUrl: 'https://api.together.xyz/settings/api-keys',
  requiresKey: true,
  supportsJsonMode: true,
  jsonModeWhileStreaming: false,
  supportsStreaming: true,
  // Not checked against its docs: asked as of OpenAI; a refusal would be learnt.
  streamUsage: 'on-request',
  outputLimit: 'max_tokens',
  reasoningControl: 'reasoning_effort',
  families: [{ match: /gpt-oss/, efforts: ['low', 'medium', 'high'] }],
  editableBaseUrl: false,
  editableModel: true,
  draws: 'images-api',
};

/**
 * Ollama, LM Studio or a llama.cpp server on the player's machine. JSON mode is off because
 * LM Studio refuses {type: 'json_object'}; the reply repair copes with prose around the JSON.
 */
const LOCAL: ProviderPreset = {
  id: 'local',
  label: 'Local model (Ollama, LM Studio, llama.cpp)',
  labelMessageId: 'llm.provider.local.name',
  baseUrl: PRESET_BASE_URLS.local,
  models: [
    { id: 'llama3.2', label: 'llama3.2' },
    { id: 'qwen3', label: 'qwen3' },
    { id: 'gpt-oss:20b', label: 'gpt-oss:20b' },
  ],
  defaultModel: 'llama3.2',
  requiresKey: false,
  supportsJsonMode: false,
  jsonModeWhileStreaming: false,
  supportsStreaming: true,
  // OpenAI's way, copied by local servers (llamafile added it in 2025, mozilla-ai/llamafile#713);
  // not checked for each: a server that refuses the parameter teaches so.
  streamUsage: 'on-request',
  outputLimit: 'max_tokens',
  // Ollama and LM Studio take reasoning_effort for gpt-oss; qwen3 and DeepSeek-R1 think in
  // <think> blocks with no effort to set. A server that refuses the parameter is asked without.
  reasoningControl: 'reasoning_effort',
  families: [
    { match: /gpt-oss/, efforts: ['low', 'medium', 'high'] },
    { match: /qwen3|deepseek-r1/i, thinkingTokens: REASONING_ALLOWANCE_TOKENS },
  ],
  editableBaseUrl: true,
  editableModel: true,
  draws: null,
  hint: {
    messageId: 'llm.provider.local.hint',
    defaultMessage:
      "The local server must allow this page's origin (CORS), e.g. start Ollama with OLLAMA_ORIGINS set to this site's address.",
  },
};

/** Any OpenAI-compatible endpoint; what it supports is unknown, so only streaming is asked for. */
const CUSTOM: ProviderPreset = {
  id: 'custom',
  label: 'Custom (OpenAI-compatible)',
  labelMessageId: 'llm.provider.custom.name',
  baseUrl: '',
  models: [],
  defaultModel: '',
  requiresKey: false,
  supportsJsonMode: false,
  jsonModeWhileStreaming: false,
  supportsStreaming: true,
  streamUsage: 'on-request',
  outputLimit: 'max_tokens',
  reasoningControl: null,
  families: [],
  editableBaseUrl: true,
  editableModel: true,
  draws: 'images-api',
};

export const PROVIDERS: readonly ProviderPreset[] = [
  GROQ,
  OPENAI,
  OPENROUTER,
  TOGETHER,
  LOCAL,
  CUSTOM,
];

export const DEFAULT_PROVIDER_ID: ProviderId = 'groq';

/** The preset with this id; the default provider for an unknown id (an old or edited setting). */
export function providerById(id: string | null | undefined): ProviderPreset {
  return PROVIDERS.find((provider) => provider.id === id) ?? GROQ;
}

/**
 * Whether the model list may be read while the player types the key, before the key check: a
 * hosted preset, whose host the page's policy names and which answers the page (CORS), as it
 * does at the key check. A local or custom server is asked only when the key is submitted: its
 * origin may need the page's leave (connectPolicy.ts) or the browser's (local network access).
 */
export const listsModelsEarly = (provider: ProviderPreset): boolean => !provider.editableBaseUrl;

/** The base URL requests go to: the player's own for the presets that let them set one. */
export function baseUrlOf(provider: ProviderPreset, baseUrl?: string): string {
  const own = provider.editableBaseUrl && baseUrl !== undefined && baseUrl.trim() !== '';
  return (own ? baseUrl : provider.baseUrl).trim().replace(/\/+$/, '');
}

/** The model asked for: the player's choice, or the preset's default when none was made. */
export function modelOf(provider: ProviderPreset, chosen: string): string {
  return chosen.trim() || provider.defaultModel;
}

/** The chat-completions endpoint under a base URL, whether or not it ends in slashes. */
export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

/** The model-list endpoint (GET /models) under a base URL. */
export function modelsUrl(baseUrl: string): string {
  const base = baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/chat\/completions$/, '');
  return `${base}/models`;
}

/** The family this model belongs to, as the provider documents it; null for one no rule names. */
export function familyOf(provider: ProviderPreset, model: string): ModelFamily | null {
  return provider.families.find((family) => family.match.test(model)) ?? null;
}

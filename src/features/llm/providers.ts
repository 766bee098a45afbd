/**
 * Language-model providers the player can bring a key for (DESIGN.md, "Language model"). All
 * speak OpenAI-compatible chat completions; what differs between them is data, kept here: where
 * they live, a short built-in list of models (the fallback when the provider's own GET /models
 * cannot be read), the curated default, and what each documents about JSON mode, streaming and
 * reasoning. What a provider refuses at run time is learnt per session (capabilities.ts).
 */

export type ProviderId = 'groq' | 'openai' | 'openrouter' | 'together' | 'local' | 'custom';

export interface ModelPreset {
  id: string;
  /** Shown in the model dropdown. */
  label: string;
}

/** A line of help shown under the provider selector: a catalogue id and its English text. */
export interface ProviderHint {
  messageId: string;
  defaultMessage: string;
}

/** Models that think before they answer: how to keep their thinking short. */
export interface ReasoningModelRule {
  /** The model ids the rule covers. */
  match: RegExp;
  /**
   * The effort asked for so that a turn stays quick; 'none' switches thinking off. Absent: the
   * model thinks as it will (no control documented), and only gets room to.
   */
  effort?: string;
  /** Only the default temperature is accepted (OpenAI's reasoning models). */
  fixedTemperature?: boolean;
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
  /** The curated current default: the provider's strongest general model for a story. */
  defaultModel: string;
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
  /** The name of the output limit; OpenAI's reasoning models refuse the older max_tokens. */
  outputLimit: 'max_tokens' | 'max_completion_tokens';
  /** How reasoning effort is asked for: OpenAI's reasoning_effort, OpenRouter's reasoning. */
  reasoningControl: 'reasoning_effort' | 'reasoning' | null;
  /** The models that reason, as the provider documents them. */
  reasoningModels: readonly ReasoningModelRule[];
  /** Ids this provider lists that chat completions cannot serve, beyond the common ones. */
  notChatModels?: RegExp;
  /** The player may change the base URL (the 'Base URL' field is shown). */
  editableBaseUrl: boolean;
  /** The player may type a model id the list does not hold. */
  editableModel: boolean;
  hint?: ProviderHint;
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
  baseUrl: 'https://api.groq.com/openai/v1',
  models: [
    { id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B' },
    { id: 'openai/gpt-oss-20b', label: 'GPT-OSS 20B' },
    { id: 'qwen/qwen3.6-27b', label: 'Qwen3.6 27B' },
  ],
  defaultModel: 'openai/gpt-oss-120b',
  keyPortalUrl: 'https://console.groq.com/keys',
  requiresKey: true,
  supportsJsonMode: true,
  jsonModeWhileStreaming: false,
  supportsStreaming: true,
  outputLimit: 'max_tokens',
  reasoningControl: 'reasoning_effort',
  reasoningModels: [
    { match: /gpt-oss/, effort: 'low' },
    { match: /qwen3/, effort: 'none' },
  ],
  editableBaseUrl: false,
  editableModel: false,
};

/**
 * OpenAI's GPT-5 family reasons: it takes max_completion_tokens (not max_tokens), only the
 * default temperature, and reasoning_effort (minimal is its lowest). JSON mode needs the word JSON in the messages,
 * which the game's system prompts have in both languages.
 */
const OPENAI: ProviderPreset = {
  id: 'openai',
  label: 'OpenAI',
  baseUrl: 'https://api.openai.com/v1',
  models: [
    { id: 'gpt-5-mini', label: 'GPT-5 mini' },
    { id: 'gpt-5', label: 'GPT-5' },
    { id: 'gpt-5-nano', label: 'GPT-5 nano' },
    { id: 'gpt-4.1-mini', label: 'GPT-4.1 mini' },
  ],
  defaultModel: 'gpt-5-mini',
  keyPortalUrl: 'https://platform.openai.com/api-keys',
  requiresKey: true,
  supportsJsonMode: true,
  jsonModeWhileStreaming: true,
  supportsStreaming: true,
  outputLimit: 'max_completion_tokens',
  reasoningControl: 'reasoning_effort',
  // The lowest effort each family takes: GPT-5's 'minimal', the o-series' 'low'.
  reasoningModels: [
    { match: /^gpt-5(?!-chat)/, effort: 'minimal', fixedTemperature: true },
    { match: /^o\d/, effort: 'low', fixedTemperature: true },
  ],
  // Responses-only (the -pro and deep-research models) and completions-only (-instruct).
  notChatModels: /(^|-)pro($|-\d)|deep-research|-instruct\b/,
  editableBaseUrl: false,
  editableModel: false,
};

/**
 * OpenRouter passes response_format on to the models that take it and drops what a model does
 * not support; reasoning is asked for with its own {reasoning: {effort}} object.
 */
const OPENROUTER: ProviderPreset = {
  id: 'openrouter',
  label: 'OpenRouter',
  baseUrl: 'https://openrouter.ai/api/v1',
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
  outputLimit: 'max_tokens',
  reasoningControl: 'reasoning',
  reasoningModels: [{ match: /gpt-oss|thinking|deepseek-r1/i, effort: 'low' }],
  editableBaseUrl: false,
  editableModel: true,
};

/** Together documents JSON mode for whole replies; streamed ones are repaired on the client. */
const TOGETHER: ProviderPreset = {
  id: 'together',
  label: 'Together AI',
  baseUrl: 'https://api.together.xyz/v1',
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
  outputLimit: 'max_tokens',
  reasoningControl: 'reasoning_effort',
  reasoningModels: [{ match: /gpt-oss/, effort: 'low' }],
  editableBaseUrl: false,
  editableModel: true,
};

/**
 * Ollama, LM Studio or a llama.cpp server on the player's machine. JSON mode is off because
 * LM Studio refuses {type: 'json_object'}; the reply repair copes with prose around the JSON.
 */
const LOCAL: ProviderPreset = {
  id: 'local',
  label: 'Local model (Ollama, LM Studio, llama.cpp)',
  labelMessageId: 'llm.provider.local.name',
  baseUrl: 'http://localhost:11434/v1',
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
  outputLimit: 'max_tokens',
  // Ollama and LM Studio take reasoning_effort for gpt-oss; qwen3 and DeepSeek-R1 think in
  // <think> blocks with no effort to set. A server that refuses the parameter is asked without.
  reasoningControl: 'reasoning_effort',
  reasoningModels: [{ match: /gpt-oss/, effort: 'low' }, { match: /qwen3|deepseek-r1/i }],
  editableBaseUrl: true,
  editableModel: true,
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
  outputLimit: 'max_tokens',
  reasoningControl: null,
  reasoningModels: [],
  editableBaseUrl: true,
  editableModel: true,
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

/** How the provider documents this model's reasoning; null for a model that answers at once. */
export function reasoningRuleOf(
  provider: ProviderPreset,
  model: string,
): ReasoningModelRule | null {
  return provider.reasoningModels.find((rule) => rule.match.test(model)) ?? null;
}

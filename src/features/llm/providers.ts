/**
 * Language-model providers the player can bring a key for (DESIGN.md, "Language model"). All
 * speak OpenAI-compatible chat completions; what differs between them is data, kept here.
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

export interface ProviderPreset {
  id: ProviderId;
  /** A product name, the same in every interface language. */
  label: string;
  /** Ends in /v1 (or the provider's equivalent); chat completions live under it. */
  baseUrl: string;
  models: readonly ModelPreset[];
  defaultModel: string;
  /** Where a player gets a key; absent when the provider has no such page. */
  keyPortalUrl?: string;
  /** Without a key no Authorization header is sent, unless the provider requires one. */
  requiresKey: boolean;
  /** Accepts response_format {type: 'json_object'}. */
  supportsJsonMode: boolean;
  /** Accepts stream: true and answers with server-sent events. */
  supportsStreaming: boolean;
  /** The player may change the base URL (the 'Base URL' field is shown). */
  editableBaseUrl: boolean;
  /** The player may type a model id the list does not hold. */
  editableModel: boolean;
  hint?: ProviderHint;
}

/** SPEC.md section 9: four models of the provider's third generation, the 70B the default. */
const GROQ: ProviderPreset = {
  id: 'groq',
  label: 'Groq',
  baseUrl: 'https://api.groq.com/openai/v1',
  models: [
    { id: 'llama-3.3-70b-versatile', label: '70B (default)' },
    { id: 'llama-3.1-8b-instant', label: '8B preview' },
    { id: 'mistral-saba-24b', label: '24B preview' },
    { id: 'llama-3.1-405b-reasoning', label: '405B' },
  ],
  defaultModel: 'llama-3.3-70b-versatile',
  keyPortalUrl: 'https://console.groq.com/keys',
  requiresKey: true,
  supportsJsonMode: true,
  supportsStreaming: true,
  editableBaseUrl: false,
  editableModel: false,
};

const OPENAI: ProviderPreset = {
  id: 'openai',
  label: 'OpenAI',
  baseUrl: 'https://api.openai.com/v1',
  models: [
    { id: 'gpt-4o-mini', label: 'GPT-4o mini' },
    { id: 'gpt-4o', label: 'GPT-4o' },
  ],
  defaultModel: 'gpt-4o-mini',
  keyPortalUrl: 'https://platform.openai.com/api-keys',
  requiresKey: true,
  supportsJsonMode: true,
  supportsStreaming: true,
  editableBaseUrl: false,
  editableModel: false,
};

/** OpenRouter passes response_format on to the models that take it and drops it for the rest. */
const OPENROUTER: ProviderPreset = {
  id: 'openrouter',
  label: 'OpenRouter',
  baseUrl: 'https://openrouter.ai/api/v1',
  models: [
    { id: 'meta-llama/llama-3.3-70b-instruct', label: 'Llama 3.3 70B Instruct' },
    { id: 'openai/gpt-4o-mini', label: 'GPT-4o mini' },
  ],
  defaultModel: 'meta-llama/llama-3.3-70b-instruct',
  keyPortalUrl: 'https://openrouter.ai/keys',
  requiresKey: true,
  supportsJsonMode: true,
  supportsStreaming: true,
  editableBaseUrl: false,
  editableModel: true,
};

const TOGETHER: ProviderPreset = {
  id: 'together',
  label: 'Together AI',
  baseUrl: 'https://api.together.xyz/v1',
  models: [
    { id: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', label: 'Llama 3.3 70B Instruct Turbo' },
    { id: 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo', label: 'Llama 3.1 8B Instruct Turbo' },
  ],
  defaultModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  keyPortalUrl: 'https://api.together.xyz/settings/api-keys',
  requiresKey: true,
  supportsJsonMode: true,
  supportsStreaming: true,
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
  baseUrl: 'http://localhost:11434/v1',
  models: [
    { id: 'llama3.2', label: 'llama3.2' },
    { id: 'llama3.1', label: 'llama3.1' },
  ],
  defaultModel: 'llama3.2',
  requiresKey: false,
  supportsJsonMode: false,
  supportsStreaming: true,
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
  baseUrl: '',
  models: [],
  defaultModel: '',
  requiresKey: false,
  supportsJsonMode: false,
  supportsStreaming: true,
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

/** The chat-completions endpoint under a base URL, whether or not it ends in slashes. */
export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

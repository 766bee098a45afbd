// The language-model feature's public API: provider presets and the calls to a provider.
export { DEFAULT_PROVIDER_ID, PROVIDERS, chatCompletionsUrl, providerById } from './providers';
export type { ModelPreset, ProviderHint, ProviderId, ProviderPreset } from './providers';
export {
  DEFAULT_RETRY_AFTER_MS,
  GENERATION_MAX_TOKENS,
  JSON_SYSTEM_MESSAGE,
  KEY_CHECK_MAX_TOKENS,
  KEY_CHECK_SYSTEM_MESSAGE,
  ProviderError,
  RateLimitedError,
  StreamInterruptedError,
  TEMPERATURE,
  checkApiKey,
  isAbortError,
  parseRetryAfter,
  partialField,
  requestCompletion,
} from './client';
export type { CheckApiKeyRequest, CompletionRequest } from './client';

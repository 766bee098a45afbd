// The language-model feature's public API: provider presets, what a request asks for, the
// calls to a provider, and what the session has learnt about it.
export {
  DEFAULT_PROVIDER_ID,
  PROVIDERS,
  REASONING_ALLOWANCE_TOKENS,
  baseUrlOf,
  chatCompletionsUrl,
  familyOf,
  listsModelsEarly,
  modelOf,
  modelsUrl,
  providerById,
} from './providers';
export type {
  ModelFamily,
  ModelPreset,
  ModelPrice,
  ProviderHint,
  ProviderId,
  ProviderPreset,
} from './providers';
export {
  GENERATION_MAX_TOKENS,
  KEY_CHECK_MAX_TOKENS,
  MODEL_FEATURES,
  TEMPERATURE,
  capabilityKey,
  lessonOf,
  lowestSupportedEffort,
  planRequest,
  refusedFeature,
  requestBody,
} from './capabilities';
export type { ModelFeature, ModelLesson, RequestPlan } from './capabilities';
export {
  DEFAULT_RETRY_AFTER_MS,
  DailyLimitError,
  NoCreditError,
  ProviderError,
  ProviderLimitError,
  ProviderUnreachableError,
  RateLimitedError,
  ReplyCutOffError,
  RequestTooLargeError,
  StreamInterruptedError,
  isAbortError,
  limitError,
} from './errors';
export { limitOf, minuteTokenLimitOf, parseDuration, parseRetryAfter } from './limits';
export type { LimitKind, ProviderLimit } from './limits';
export {
  JSON_SYSTEM_MESSAGE,
  KEY_CHECK_SYSTEM_MESSAGE,
  checkApiKey,
  fetchModelList,
  requestCompletion,
} from './client';
export type { CheckApiKeyRequest, CompletionRequest, ModelListRequest } from './client';
export { usageOf } from './usage';
export type { TokenUsage } from './usage';
export { USAGE_WAIT_MS } from './eventStream';
export { fieldReader, partialField } from './partialField';
export type { FieldReader } from './partialField';
export { httpModelClient } from './modelClient';
export type { ModelClient } from './modelClient';
export { chatModelsOf, chosenDefaultModel, modelNaming, settleModel } from './models';
export type { ModelNaming, SettledModel } from './models';
export { MODEL_LIST_QUIET_MS, modelListSaga, readModelListAsTyped } from './modelListSaga';
export { modelListFor, readTypedKeyModels } from './modelListRead';
export { keyFingerprint, pageTypedKey, typedKeyHolder } from './typedKey';
export type { TypedKey } from './typedKey';
export {
  CONNECT_COOKIE,
  connectOriginOf,
  connectStep,
  forgetPendingKeyCheck,
  readPendingKeyCheck,
  reloadToAllow,
} from './connectPolicy';
export type { PendingKeyCheck } from './connectPolicy';
export { browserConnectPage } from './connectPage';
export { addressSpaceOfHost, addressSpaceOfUrl, permissionSpaceFor } from './addressSpace';
export type { AddressSpace } from './addressSpace';
export { browserLocalNetworkAccess } from './localNetwork';
export type { LocalNetworkAccess } from './localNetwork';
export { PERMISSION_NAMES, localNetworkPermission } from './localNetworkPermission';
export type { LocalNetworkPermission, PrivateSpace } from './localNetworkPermission';
export type { ConnectPage } from './connectPage';
export {
  initialProviderSessionState,
  modelListOf,
  providerSessionActions,
  providerSessionSlice,
  sameSource,
  selectListedModels,
  selectMinuteLimit,
  selectModelList,
  selectModelReplaced,
} from './providerSessionSlice';
export type {
  MinuteLimit,
  ModelList,
  ModelListSource,
  ProviderSessionState,
} from './providerSessionSlice';
// The prompts of each language and what the game builds them from. A bundle gets only the
// names it uses (webpack follows each one to its module), so the builders still come with the
// flows that use them, not with the home screen.
export {
  REPLY_TOKENS,
  loadPrompts,
  loreAtOpening,
  loreTold,
  promptsFor,
  promptsLoaded,
  sheetTold,
} from './prompts';
export type { CharacterSketch, ContextEntry, Prompts, TurnInput, TurnUse } from './prompts';
export { estimateTokens } from './tokens';
export { mostATurnReserves, tokensReserved } from './reservation';
export type { LlmContext } from './sagaContext';
export { browserModelClient } from './browserModelClient';
// Pictures of the story (issue 41): which models draw, the request, its failures and its prompt.
// The game's picture flows (features/pictures) fetch the client with their own code.
export {
  defaultImageModel,
  imageModelsOf,
  namesImageModel,
  settleImageModel,
  type ImageModel,
  type SettledImageModel,
} from './pictures/imageModels';
export { PICTURE_TIMEOUT_MS } from './pictures/pictureClient';
export { fetchImageModelList } from './pictures/imageModelList';
export { pictureRatio, type PictureShape } from './pictures/pictureShapes';
export {
  MAX_ANSWER_BYTES,
  MAX_PICTURE_BYTES,
  boundedChunks,
  declaredLength,
  pictureTooLarge,
} from './pictures/pictureBytes';
export type { PictureReader } from './pictures/pictureAnswer';
// What a worker may load of the model client, the page's too.
export * from './workerParts';
export { PICTURE_PROVIDERS } from './pictureProviders';
export {
  PICTURE_PROMPT_MAX_CHARS,
  picturePrompt,
  type PictureMoment,
  type PicturePromptInput,
} from './pictures/picturePrompt';

/**
 * The presets that can draw (ProviderPreset.draws, issue 41): OpenAI, OpenRouter and Together,
 * whose own model lists say which models draw, and Custom, whose list may only suggest them and
 * whose player names the one their server draws with (llm/pictures/imageModels.ts,
 * namesImageModel). Named here
 * apart from providers.ts so the home bundle, whose pictures loader decides on it, does not
 * carry the presets' table; test/features/llm/pictureProviders.test.ts holds this list to the
 * table.
 */
export const PICTURE_PROVIDERS: ReadonlySet<string> = new Set([
  'openai',
  'openrouter',
  'together',
  'custom',
]);

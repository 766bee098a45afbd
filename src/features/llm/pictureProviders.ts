/**
 * The presets whose own model list the game reads for image models (issue 41): those that draw
 * (ProviderPreset.draws), but Custom, whose list says nothing of pictures the game can trust.
 * Named here apart from providers.ts so the home bundle, whose pictures loader decides on it,
 * does not carry the presets' table; test/features/llm/pictureProviders.test.ts holds this list
 * to the table.
 */
export const PICTURE_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'openrouter', 'together']);

import { providerById, type ProviderPreset } from '../../llm';
import type { SettingsState } from '../../settings';
import type { KeyErrorCode } from '../gameSlice';

/** A key error, or one of the form's own field checks. */
export type KeyFormError = KeyErrorCode | 'baseUrlRequired' | 'modelRequired';

/**
 * The key screen's choices before the player submits them: a provider preset, a model, and a
 * server address for the presets that let the player name one. The key itself is not part of
 * it; the form holds it apart, and nothing here stores it.
 */
export interface Draft {
  provider: string;
  /** Empty for the default, which the key check chooses from the provider's own list. */
  model: string;
  baseUrl: string;
  /** A Custom server's image model, for pictures (issue 41); empty for none. */
  imageModel: string;
}

/**
 * The remembered choices, or the preset's defaults where nothing fits this preset: the model
 * left to the default (issue 38: the default is the provider's to say, not an id the account
 * may not have).
 */
export function draftFromSettings(
  settings: Pick<SettingsState, 'provider' | 'model' | 'baseUrl' | 'imageModel'>,
): Draft {
  const preset = providerById(settings.provider);
  return {
    provider: preset.id,
    model: settings.model,
    baseUrl: preset.editableBaseUrl ? settings.baseUrl || preset.baseUrl : '',
    imageModel: settings.imageModel,
  };
}

/**
 * Another preset's defaults: its model and address; the image model named for a Custom server
 * is not the preset's, and stays in the draft.
 */
export function draftForPreset(preset: ProviderPreset): Omit<Draft, 'imageModel'> {
  return {
    provider: preset.id,
    model: '',
    baseUrl: preset.editableBaseUrl ? preset.baseUrl : '',
  };
}

/**
 * What keeps the form from being sent, checked in this order: a key the preset requires, a
 * server address it lets the player name, a model where the preset has no default (SPEC.md
 * section 5; DESIGN.md: shown in the interface language, not always in Korean). Null when the
 * form may go.
 */
export function formProblemOf(
  preset: ProviderPreset,
  draft: Draft,
  key: string,
): KeyFormError | null {
  return preset.requiresKey && key === ''
    ? 'emptyApiKey'
    : preset.editableBaseUrl && draft.baseUrl.trim() === ''
      ? 'baseUrlRequired'
      : draft.model.trim() === '' && preset.defaultModel === ''
        ? 'modelRequired'
        : null;
}

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { LANGUAGES, type Language } from '../../engine/types';

/**
 * What the player chose for the interface and the model provider (never the key); the only
 * state redux-persist keeps.
 */
export interface SettingsState {
  language: Language;
  /** A provider preset id (src/features/llm/providers.ts). */
  provider: string;
  /** The model id; empty means the preset's default. */
  model: string;
  /** For the local and custom presets: where the OpenAI-compatible server is. */
  baseUrl: string;
  /** Whether each new paragraph of the story is read aloud as it arrives (issue 22). */
  autoRead: boolean;
}

export const initialSettingsState: SettingsState = {
  language: 'en',
  provider: 'groq',
  model: '',
  baseUrl: '',
  autoRead: false,
};

export const settingsSlice = createSlice({
  name: 'settings',
  initialState: initialSettingsState,
  reducers: {
    /**
     * The settings kept from an earlier visit are back (src/app/savedSettings.ts): what the
     * storage held, each field taken only if it is still a value the settings can have.
     */
    restored(state, action: PayloadAction<Record<string, unknown>>) {
      const { language, provider, model, baseUrl, autoRead } = action.payload;
      if ((LANGUAGES as readonly unknown[]).includes(language)) {
        state.language = language as Language;
      }
      if (typeof provider === 'string' && provider !== '') state.provider = provider;
      if (typeof model === 'string') state.model = model;
      if (typeof baseUrl === 'string') state.baseUrl = baseUrl.trim();
      if (typeof autoRead === 'boolean') state.autoRead = autoRead;
    },
    languageChosen(state, action: PayloadAction<string>) {
      // An unknown value (an old build, a hand-edited storage) is ignored, not stored.
      if ((LANGUAGES as readonly string[]).includes(action.payload)) {
        state.language = action.payload as Language;
      }
    },
    /** The API key screen's provider, model and base URL, remembered for next time. */
    modelSettingsChosen(
      state,
      action: PayloadAction<{ provider: string; model: string; baseUrl: string }>,
    ) {
      state.provider = action.payload.provider;
      state.model = action.payload.model;
      state.baseUrl = action.payload.baseUrl.trim();
    },
    /** The playing screen's 'Read new paragraphs aloud' box, ticked or cleared. */
    autoReadChosen(state, action: PayloadAction<boolean>) {
      // Only a yes or a no (a replayed or hand-written action may carry anything).
      if (typeof action.payload === 'boolean') state.autoRead = action.payload;
    },
  },
  selectors: {
    selectLanguage: (settings) => settings.language,
    selectAutoRead: (settings) => settings.autoRead,
    /** All the settings (one object, so components re-render only when one changes). */
    selectSettings: (settings) => settings,
  },
});

export const { languageChosen, modelSettingsChosen, autoReadChosen } = settingsSlice.actions;
export const { selectLanguage, selectAutoRead, selectSettings } = settingsSlice.selectors;

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { LANGUAGES, type Language } from '../../engine/types';

/** What the player chose for the interface; the only state redux-persist keeps. */
export interface SettingsState {
  language: Language;
}

export const initialSettingsState: SettingsState = { language: 'en' };

export const settingsSlice = createSlice({
  name: 'settings',
  initialState: initialSettingsState,
  reducers: {
    languageChosen(state, action: PayloadAction<string>) {
      // An unknown value (an old build, a hand-edited storage) is ignored, not stored.
      if ((LANGUAGES as readonly string[]).includes(action.payload)) {
        state.language = action.payload as Language;
      }
    },
  },
  selectors: {
    selectLanguage: (settings) => settings.language,
  },
});

export const { languageChosen } = settingsSlice.actions;
export const { selectLanguage } = settingsSlice.selectors;

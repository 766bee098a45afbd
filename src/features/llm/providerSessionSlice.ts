import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ModelPreset } from './providers';

/**
 * What this session has learnt about the player's provider (DESIGN.md, Language model): its own
 * list of chat models, and a saved model it no longer offers. Not persisted: a provider's
 * models change, so each session asks again. (What it refused is kept with the settings:
 * settings/modelLessonLearned.)
 */
export interface ProviderSessionState {
  /** The provider's own list, read with the player's key; null until read, or if unreadable. */
  listed: { provider: string; baseUrl: string; models: ModelPreset[] } | null;
  /** The saved model the provider (a preset id) no longer lists, and the one in its place. */
  modelReplaced: { provider: string; from: string; to: string } | null;
}

export const initialProviderSessionState: ProviderSessionState = {
  listed: null,
  modelReplaced: null,
};

export const providerSessionSlice = createSlice({
  name: 'providerSession',
  initialState: initialProviderSessionState,
  reducers: {
    modelsListed(state, action: PayloadAction<NonNullable<ProviderSessionState['listed']>>) {
      state.listed = action.payload;
    },
    modelListUnavailable(state) {
      state.listed = null;
    },
    modelReplaced(
      state,
      action: PayloadAction<NonNullable<ProviderSessionState['modelReplaced']>>,
    ) {
      state.modelReplaced = action.payload;
    },
    modelNoticeDismissed(state) {
      state.modelReplaced = null;
    },
  },
  selectors: {
    selectListedModels: (session) => session.listed,
    selectModelReplaced: (session) => session.modelReplaced,
  },
});

export const providerSessionActions = providerSessionSlice.actions;
export const { selectListedModels, selectModelReplaced } = providerSessionSlice.selectors;

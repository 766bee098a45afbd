import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ModelFeature } from './capabilities';
import type { ModelPreset } from './providers';

/**
 * What this session has learnt about the player's provider (DESIGN.md, Language model): its own
 * list of chat models, the features it refused, and a saved model it no longer offers. Not
 * persisted: a provider's models and rules change, so each session asks again.
 */
export interface ProviderSessionState {
  /** The provider's own list, read with the player's key; null until read, or if unreadable. */
  listed: { provider: string; baseUrl: string; models: ModelPreset[] } | null;
  /** Features refused, by capabilityKey (provider, endpoint and model). */
  refused: Record<string, ModelFeature[]>;
  /** The saved model the provider (a preset id) no longer lists, and the one in its place. */
  modelReplaced: { provider: string; from: string; to: string } | null;
}

export const initialProviderSessionState: ProviderSessionState = {
  listed: null,
  refused: {},
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
    /** The provider refused a feature for a model; it is not asked for again this session. */
    featureRefused(state, action: PayloadAction<{ key: string; feature: ModelFeature }>) {
      const { key, feature } = action.payload;
      const refused = state.refused[key] ?? [];
      if (!refused.includes(feature)) state.refused[key] = [...refused, feature];
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
    selectRefusedFeatures: (session) => session.refused,
  },
});

export const providerSessionActions = providerSessionSlice.actions;
export const { selectListedModels, selectModelReplaced, selectRefusedFeatures } =
  providerSessionSlice.selectors;

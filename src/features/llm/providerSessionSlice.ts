import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ModelPreset } from './providers';

/**
 * Whose model list: a provider preset's, at this server, as this key may see it. The key is
 * known here only by its fingerprint (typedKey.ts), never itself.
 */
export interface ModelListSource {
  provider: string;
  baseUrl: string;
  keyFingerprint: string;
}

/** The provider's own list of chat models, read with the player's key (issue 38, part 4). */
export type ModelList =
  | { status: 'unknown' }
  | { status: 'read'; source: ModelListSource; models: ModelPreset[] }
  /** Not readable from this page (CORS, a key not allowed to list, no answer); keyRefused: a 401. */
  | { status: 'unreadable'; source: ModelListSource; keyRefused: boolean };

/**
 * The tokens a minute a free tier lets the key spend on a model (issue 40, part 3), as an
 * answer of the provider stated it: the budget the next turn's reservation is set against.
 */
export interface MinuteLimit {
  /** A preset id. */
  provider: string;
  baseUrl: string;
  model: string;
  tokensPerMinute: number;
}

/**
 * What this session has learnt about the player's provider (DESIGN.md, Language model): its own
 * list of chat models, a saved model it no longer offers, and the per-minute budget it states.
 * Not persisted: a provider's models and limits change, so each session asks again. (What it
 * refused is kept with the settings: settings/modelLessonLearned.)
 */
export interface ProviderSessionState {
  modelList: ModelList;
  /** The saved model the provider (a preset id) no longer lists, and the one in its place. */
  modelReplaced: { provider: string; from: string; to: string } | null;
  /** The last per-minute token budget an answer stated; null until one does. */
  minuteLimit: MinuteLimit | null;
}

export const initialProviderSessionState: ProviderSessionState = {
  modelList: { status: 'unknown' },
  modelReplaced: null,
  minuteLimit: null,
};

export const sameSource = (a: ModelListSource, b: ModelListSource): boolean =>
  a.provider === b.provider && a.baseUrl === b.baseUrl && a.keyFingerprint === b.keyFingerprint;

/** The list as this source has it: unknown when the one in the session is another's. */
export const modelListOf = (list: ModelList, source: ModelListSource): ModelList =>
  list.status !== 'unknown' && sameSource(list.source, source) ? list : { status: 'unknown' };

export const providerSessionSlice = createSlice({
  name: 'providerSession',
  initialState: initialProviderSessionState,
  reducers: {
    /**
     * The key screen's provider, server or key changed (the key by its fingerprint): the
     * model-list flow reads the list once the typing stops. Nothing here changes.
     */
    keyTyped(_state, _action: PayloadAction<ModelListSource>) {},
    modelListRead(
      state,
      action: PayloadAction<{ source: ModelListSource; models: ModelPreset[] }>,
    ) {
      state.modelList = { status: 'read', ...action.payload };
    },
    modelListUnreadable(
      state,
      action: PayloadAction<{ source: ModelListSource; keyRefused: boolean }>,
    ) {
      // A list already read for this key stays known: a later read that failed forgets nothing.
      const { modelList } = state;
      if (modelList.status === 'read' && sameSource(modelList.source, action.payload.source)) {
        return;
      }
      state.modelList = { status: 'unreadable', ...action.payload };
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
    /** An answer (a key check's, a turn's, a refusal) stated the key's tokens a minute. */
    minuteLimitRead(state, action: PayloadAction<MinuteLimit>) {
      state.minuteLimit = action.payload;
    },
  },
  selectors: {
    selectModelList: (session) => session.modelList,
    /** The provider's own list, once read (for whichever key read it). */
    selectListedModels: (session) =>
      session.modelList.status === 'read' ? session.modelList : null,
    selectModelReplaced: (session) => session.modelReplaced,
    selectMinuteLimit: (session) => session.minuteLimit,
  },
});

export const providerSessionActions = providerSessionSlice.actions;
export const { selectModelList, selectListedModels, selectModelReplaced, selectMinuteLimit } =
  providerSessionSlice.selectors;

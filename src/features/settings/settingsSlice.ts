import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { checkedLorebook, type LoreEntry } from '../../engine/loreEntries';
import { LANGUAGES, type Language } from '../../engine/types';
import type { ModelFeature, ModelLesson } from '../llm';

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
  /**
   * For the custom preset: the image model its /images/generations draws with, as the player
   * named it (issue 41); empty until named. The presets' image models come from their lists.
   */
  imageModel: string;
  /** Whether each new paragraph of the story is read aloud as it arrives. */
  autoRead: boolean;
  /**
   * 'Keep my stories with my wallet': each save also goes to the backend while the wallet is
   * signed in (the stories feature's cloud saves). Off until the player turns it on.
   */
  cloudSaves: boolean;
  /**
   * What providers taught by refusing a request, by model (the llm feature's
   * capabilityKey: provider, endpoint and model): kept, so that a reload does not ask for a
   * refused parameter again.
   */
  modelLessons: Record<string, ModelLesson[]>;
  /**
   * The player's own lorebooks, by genre (the story's genre as chosen): a new story of that
   * genre starts with a copy. Kept here, in the browser only, the latest MAX_GENRE_LOREBOOKS.
   */
  genreLorebooks: Record<string, LoreEntry[]>;
}

export const initialSettingsState: SettingsState = {
  language: 'en',
  provider: 'groq',
  model: '',
  baseUrl: '',
  imageModel: '',
  autoRead: false,
  cloudSaves: false,
  modelLessons: {},
  genreLorebooks: {},
};

/** How many models' lessons are kept: the latest ones (a player uses a handful). */
export const MAX_MODELS_WITH_LESSONS = 40;

/** Every feature a provider may refuse: a feature added to ModelFeature must be added here. */
const FEATURES: Readonly<Record<ModelFeature, true>> = {
  response_format: true,
  stream: true,
  stream_options: true,
  reasoning: true,
  temperature: true,
  max_tokens: true,
};

/** A lesson as stored or replayed, if it is one (anything else is dropped). */
function checkedLesson(value: unknown): ModelLesson | null {
  const { feature, use } = (value ?? {}) as { feature?: unknown; use?: unknown };
  if (typeof feature !== 'string' || !Object.hasOwn(FEATURES, feature)) return null;
  if (use !== undefined && (typeof use !== 'string' || use.length > 40)) return null;
  return use === undefined
    ? { feature: feature as ModelFeature }
    : { feature: feature as ModelFeature, use };
}

/** Stored lessons, each checked, the latest MAX_MODELS_WITH_LESSONS models. */
function lessonsOf(value: unknown): Record<string, ModelLesson[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([key, list]) => key.length <= 500 && Array.isArray(list))
    .map(([key, list]): [string, ModelLesson[]] => [
      key,
      (list as unknown[]).map(checkedLesson).filter((lesson): lesson is ModelLesson => !!lesson),
    ])
    .filter(([, list]) => list.length > 0);
  return Object.fromEntries(entries.slice(-MAX_MODELS_WITH_LESSONS));
}

/**
 * How many genres keep a lorebook: the latest saved. Every change of the settings writes them
 * all to localStorage, so they stay within a few hundred KB even with every book full.
 */
export const MAX_GENRE_LOREBOOKS = 10;
/** A genre as the genre screen takes it (GenreView's field). */
const GENRE_MAX_CHARS = 80;

const genreKey = (genre: unknown) =>
  typeof genre === 'string' && genre.trim().length <= GENRE_MAX_CHARS ? genre.trim() : '';

/** Stored genre lorebooks, each read as a story's is, the latest MAX_GENRE_LOREBOOKS. */
function genreLorebooksOf(value: unknown): Record<string, LoreEntry[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const books = Object.entries(value as Record<string, unknown>)
    .map(([genre, book]): [string, LoreEntry[]] => [genreKey(genre), checkedLorebook(book)])
    .filter(([genre, book]) => genre !== '' && book.length > 0);
  return Object.fromEntries(books.slice(-MAX_GENRE_LOREBOOKS));
}

export const settingsSlice = createSlice({
  name: 'settings',
  initialState: initialSettingsState,
  reducers: {
    /**
     * The settings kept from an earlier visit are back (src/app/savedSettings.ts): what the
     * storage held, each field taken only if it is still a value the settings can have.
     */
    restored(state, action: PayloadAction<Record<string, unknown>>) {
      const {
        language,
        provider,
        model,
        baseUrl,
        imageModel,
        autoRead,
        cloudSaves,
        modelLessons,
        genreLorebooks,
      } = action.payload;
      if ((LANGUAGES as readonly unknown[]).includes(language)) {
        state.language = language as Language;
      }
      if (typeof provider === 'string' && provider !== '') state.provider = provider;
      if (typeof model === 'string') state.model = model;
      if (typeof baseUrl === 'string') state.baseUrl = baseUrl.trim();
      if (typeof imageModel === 'string') state.imageModel = imageModel;
      if (typeof autoRead === 'boolean') state.autoRead = autoRead;
      if (typeof cloudSaves === 'boolean') state.cloudSaves = cloudSaves;
      state.modelLessons = lessonsOf(modelLessons);
      state.genreLorebooks = genreLorebooksOf(genreLorebooks);
    },
    languageChosen(state, action: PayloadAction<string>) {
      // An unknown value (an old build, a hand-edited storage) is ignored, not stored.
      if ((LANGUAGES as readonly string[]).includes(action.payload)) {
        state.language = action.payload as Language;
      }
    },
    /**
     * The API key screen's provider, model and base URL, remembered for next time, and a Custom
     * server's image model where it names one (the key screen, the pictures' toggle).
     */
    modelSettingsChosen(
      state,
      action: PayloadAction<{
        provider: string;
        model: string;
        baseUrl: string;
        imageModel?: string;
      }>,
    ) {
      const { provider, model, baseUrl, imageModel } = action.payload;
      state.provider = provider;
      state.model = model;
      state.baseUrl = baseUrl.trim();
      // Absent (or not a name) where the event was not about it: kept as it was.
      if (typeof imageModel === 'string') state.imageModel = imageModel;
    },
    /**
     * A provider refused part of a request for a model and the game learnt from it:
     * the latest lesson about a feature replaces an earlier one, and the model moves to the end
     * of the kept list (the oldest beyond MAX_MODELS_WITH_LESSONS are forgotten).
     */
    modelLessonLearned(state, action: PayloadAction<{ key: string; lesson: ModelLesson }>) {
      const lesson = checkedLesson(action.payload.lesson);
      const { key } = action.payload;
      if (lesson === null || typeof key !== 'string') return;
      const kept = (state.modelLessons[key] ?? []).filter(
        (known) => known.feature !== lesson.feature,
      );
      delete state.modelLessons[key];
      state.modelLessons[key] = [...kept, lesson];
      const keys = Object.keys(state.modelLessons);
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_MODELS_WITH_LESSONS))) {
        delete state.modelLessons[old];
      }
    },
    /** The playing screen's 'Read new paragraphs aloud' box, ticked or cleared. */
    autoReadChosen(state, action: PayloadAction<boolean>) {
      // Only a yes or a no (a replayed or hand-written action may carry anything).
      if (typeof action.payload === 'boolean') state.autoRead = action.payload;
    },
    /**
     * The player keeps a story's lorebook for its genre: new stories of the genre start with a
     * copy. It replaces the genre's earlier one and becomes the latest kept; an empty lorebook
     * keeps nothing.
     */
    genreLorebookSaved(state, action: PayloadAction<{ genre: string; lorebook: LoreEntry[] }>) {
      const genre = genreKey(action.payload.genre);
      if (genre === '') return;
      const { [genre]: _replaced, ...others } = state.genreLorebooks;
      state.genreLorebooks = genreLorebooksOf({ ...others, [genre]: action.payload.lorebook });
    },
    /** New stories of this genre start with an empty lorebook again. */
    genreLorebookForgotten(state, action: PayloadAction<string>) {
      delete state.genreLorebooks[genreKey(action.payload)];
    },
    /** 'Keep my stories with my wallet', ticked or cleared. */
    cloudSavesChosen(state, action: PayloadAction<boolean>) {
      if (typeof action.payload === 'boolean') state.cloudSaves = action.payload;
    },
  },
  selectors: {
    selectLanguage: (settings) => settings.language,
    selectAutoRead: (settings) => settings.autoRead,
    selectCloudSaves: (settings) => settings.cloudSaves,
    selectModelLessons: (settings) => settings.modelLessons,
    selectGenreLorebooks: (settings) => settings.genreLorebooks,
    /** All the settings (one object, so components re-render only when one changes). */
    selectSettings: (settings) => settings,
  },
});

export const {
  languageChosen,
  modelSettingsChosen,
  autoReadChosen,
  cloudSavesChosen,
  modelLessonLearned,
  genreLorebookSaved,
  genreLorebookForgotten,
} = settingsSlice.actions;
export const {
  selectLanguage,
  selectAutoRead,
  selectCloudSaves,
  selectSettings,
  selectModelLessons,
  selectGenreLorebooks,
} = settingsSlice.selectors;

/** The prompts for the interface language (SPEC.md section 1: the prompts follow it). */
import type { Language } from '../../../engine/types';
import { SYSTEM_PROMPT as EN_SYSTEM_PROMPT, enPrompts } from './en';
import type { Prompts } from './types';

/**
 * English comes with the game's code; Korean (about 4 KB more over the wire, in a game that
 * does not use it) is fetched the first time a Korean game asks for its prompts.
 */
const loaded: Partial<Record<Language, Prompts>> = {
  en: { ...enPrompts, systemPrompt: EN_SYSTEM_PROMPT },
};
const loading: Partial<Record<Language, Promise<Prompts>>> = {};

const download: Record<Exclude<Language, 'en'>, () => Promise<Prompts>> = {
  kr: () =>
    import(/* webpackChunkName: "prompts-kr" */ './kr').then(({ SYSTEM_PROMPT, krPrompts }) => ({
      ...krPrompts,
      systemPrompt: SYSTEM_PROMPT,
    })),
};

/** The prompts of `language`, fetched once; a failed fetch is tried again on the next call. */
export function loadPrompts(language: Language): Promise<Prompts> {
  const ready = loaded[language];
  if (ready) return Promise.resolve(ready);
  loading[language] ??= download[language as Exclude<Language, 'en'>]().then(
    (prompts) => (loaded[language] = prompts),
    (error: unknown) => {
      delete loading[language];
      throw error;
    },
  );
  return loading[language];
}

/** Whether `language`'s prompts are here (English always is). */
export const promptsLoaded = (language: Language): boolean => loaded[language] !== undefined;

/** The prompts of a language already loaded (English always is; Korean after loadPrompts). */
export function promptsFor(language: Language): Prompts {
  const prompts = loaded[language];
  if (!prompts) {
    throw new Error(
      `The '${language}' prompts are not loaded yet: loadPrompts('${language}') first`,
    );
  }
  return prompts;
}

export {
  GIST_MAX_WORDS,
  LENGTH_GUIDANCE,
  PROMPT_TOKEN_BUDGET,
  REPLY_KEYS,
  REPLY_TOKENS,
  SHEET_TOKEN_BUDGET,
  STORY_CONTEXT_TOKEN_BUDGET,
  WHOLE_SUMMARIES,
  fitStoryContext,
  loreAtOpening,
  loreTold,
  sheetTold,
  storyContext,
  summaryGist,
} from './types';
export type {
  CharacterProfileInput,
  ContextEntry,
  CharacterSketch,
  ConclusionCheckInput,
  GenderFromNameInput,
  NextSegmentInput,
  OpeningSceneInput,
  OpeningSummaryInput,
  PromptBuilders,
  PromptUse,
  Prompts,
  RecapInput,
  SegmentSummaryInput,
  StoryContextInput,
  TurnInput,
  TurnUse,
} from './types';

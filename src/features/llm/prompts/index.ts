/** The prompts for the interface language (SPEC.md section 1: the prompts follow it). */
import type { Language } from '../../../engine/types';
import { SYSTEM_PROMPT as EN_SYSTEM_PROMPT, enPrompts } from './en';
import { SYSTEM_PROMPT as KR_SYSTEM_PROMPT, krPrompts } from './kr';
import type { Prompts } from './types';

const PROMPTS: Readonly<Record<Language, Prompts>> = {
  en: { ...enPrompts, systemPrompt: EN_SYSTEM_PROMPT },
  kr: { ...krPrompts, systemPrompt: KR_SYSTEM_PROMPT },
};

export function promptsFor(language: Language): Prompts {
  return PROMPTS[language];
}

export {
  GIST_MAX_WORDS,
  LENGTH_GUIDANCE,
  PROMPT_TOKEN_BUDGET,
  REPLY_KEYS,
  REPLY_TOKENS,
  STORY_CONTEXT_TOKEN_BUDGET,
  WHOLE_SUMMARIES,
  fitStoryContext,
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

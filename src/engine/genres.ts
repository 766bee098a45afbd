/** Preset genres offered on the genre screen (SPEC.md section 2, item 3, and section 9). */
import type { Language } from './types';
import { PRESET_GENRES_EN } from './data/genres.en';
import { PRESET_GENRES_KR } from './data/genres.kr';

export const PRESET_GENRES: Record<Language, readonly string[]> = {
  en: PRESET_GENRES_EN,
  kr: PRESET_GENRES_KR,
};

/** The preset genre buttons for the interface language. */
export function presetGenres(language: Language): readonly string[] {
  return PRESET_GENRES[language];
}

/** The Korean words for setting up a story (words.ts). */
import type { LanguageWords } from '../words';
import { PRESET_GENRES_KR } from './genres.kr';
import { FIRST_NAMES_KR, LAST_NAMES_KR } from './names.kr';

export const WORDS_KR: LanguageWords = {
  genres: PRESET_GENRES_KR,
  names: { first: FIRST_NAMES_KR, last: LAST_NAMES_KR },
};

/** The English words for setting up a story (words.ts). */
import type { LanguageWords } from '../words';
import { PRESET_GENRES_EN } from './genres.en';
import { FIRST_NAMES_EN, LAST_NAMES_EN } from './names.en';

export const WORDS_EN: LanguageWords = {
  genres: PRESET_GENRES_EN,
  names: { first: FIRST_NAMES_EN, last: LAST_NAMES_EN },
};

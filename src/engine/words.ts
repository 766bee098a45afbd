/**
 * A language's words for setting up a story: the preset genres of the genre screen (SPEC.md
 * section 2, item 3, and section 9: about 66) and the name pools of the Random button (about 100
 * first and 100 last names). English is in the game's code; Korean is fetched with the Korean
 * interface (src/features/game/languageWords.ts).
 */
import type { NamePool } from './names';

export interface LanguageWords {
  genres: readonly string[];
  names: NamePool;
}

/**
 * Random character names for the character name screen (SPEC.md section 2, item 5, and
 * section 9: about 100 first and 100 last names per language).
 */
import type { Language, Rng } from './types';
import { pickOne } from './random';
import { EN_ENDINGS, EN_LINKS, EN_OPENINGS, KR_SYLLABLES } from './data/fantasyNames';

/** A language's names to pick from (its words, words.ts). */
export interface NamePool {
  first: readonly string[];
  last: readonly string[];
}

/** Chance that a first or last name is invented rather than picked from the list. */
export const FANTASY_NAME_CHANCE = 0.1;

export interface CharacterName {
  firstName: string;
  lastName: string;
}

function nextSyllable(syllable: string): string {
  const index = KR_SYLLABLES.indexOf(syllable);
  return KR_SYLLABLES[(index + 1) % KR_SYLLABLES.length] ?? syllable;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** An invented name of 2 or 3 syllables: Latin-script for English, Hangul for Korean. */
export function fantasyName(language: Language, rng: Rng): string {
  const threeSyllables = rng() < 0.5;
  if (language === 'kr') {
    const count = threeSyllables ? 3 : 2;
    const syllables: string[] = [];
    while (syllables.length < count) {
      const syllable = pickOne(KR_SYLLABLES, rng);
      // A doubled syllable ('아아') reads as a stammer; take the next one instead.
      const previous = syllables[syllables.length - 1];
      syllables.push(syllable === previous ? nextSyllable(syllable) : syllable);
    }
    return syllables.join('');
  }
  const link = threeSyllables ? pickOne(EN_LINKS, rng) : '';
  return capitalise(pickOne(EN_OPENINGS, rng) + link + pickOne(EN_ENDINGS, rng));
}

/** A pick from `pool`, or (10% of the time, and always from an empty pool) an invented name. */
function randomPart(pool: readonly string[], language: Language, rng: Rng): string {
  return pool.length === 0 || rng() < FANTASY_NAME_CHANCE
    ? fantasyName(language, rng)
    : pickOne(pool, rng);
}

/**
 * A name for the Random button: first and last are each, independently, an invented
 * fantasy name with a 10% chance, otherwise a pick from the language's `names`.
 */
export function randomName(names: NamePool, language: Language, rng: Rng): CharacterName {
  const firstName = randomPart(names.first, language, rng);
  const lastName = randomPart(names.last, language, rng);
  return { firstName, lastName };
}

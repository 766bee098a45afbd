/**
 * The words a language sets a story up with (src/engine/words.ts): the preset genres and the
 * Random button's names. English comes with the game's code; Korean (about 1.5 KB over the wire,
 * in a game that does not use it) is in the Korean interface's own chunk, `intl-kr`, which a
 * Korean player has already downloaded with the Korean messages (src/app/intl/catalogues.ts).
 */
import { useEffect, useState } from 'react';
import type { Language } from '../../engine/types';
import type { LanguageWords } from '../../engine/words';
import { WORDS_EN } from '../../engine/data/words.en';

const loaded: Partial<Record<Language, LanguageWords>> = { en: WORDS_EN };
const loading: Partial<Record<Language, Promise<LanguageWords>>> = {};

const download: Record<Exclude<Language, 'en'>, () => Promise<LanguageWords>> = {
  kr: () =>
    import(/* webpackChunkName: "intl-kr" */ '../../engine/data/words.kr').then(
      ({ WORDS_KR }) => WORDS_KR,
    ),
};

/** The words of `language`, fetched once; a failed fetch is tried again on the next call. */
export function loadWords(language: Language): Promise<LanguageWords> {
  const ready = loaded[language];
  if (ready) return Promise.resolve(ready);
  loading[language] ??= download[language as Exclude<Language, 'en'>]().then(
    (words) => (loaded[language] = words),
    (error: unknown) => {
      delete loading[language];
      throw error;
    },
  );
  return loading[language];
}

/**
 * The words of `language`, or null until they are here (a moment, the first time: the game's
 * page asks for them as it opens, screens before the genre and name screens use them). A failed
 * fetch leaves null: the genre screen then offers no presets, and Random invents names.
 */
export function useLanguageWords(language: Language): LanguageWords | null {
  const [, arrived] = useState(0);
  const words = loaded[language] ?? null;
  useEffect(() => {
    if (words) return;
    let current = true;
    loadWords(language).then(
      () => current && arrived((count) => count + 1),
      (error: unknown) => console.warn(`The '${language}' words did not load`, error),
    );
    return () => {
      current = false;
    };
  }, [language, words]);
  return words;
}

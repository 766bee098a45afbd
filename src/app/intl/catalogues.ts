import type { MessageFormatElement } from 'react-intl';
import type { Language } from '../../engine/types';
import en from './compiled/en.json';

/** A catalogue compiled to ICU ASTs at build time (npm run intl:compile). */
export type Catalogue = Record<string, MessageFormatElement[]>;

/** The Intl locale of each interface language: 'kr' is the product's name for Korean. */
export const INTL_LOCALE: Record<Language, string> = { en: 'en', kr: 'ko' };

export const englishCatalogue = en as unknown as Catalogue;

/**
 * The catalogue for a language. English ships in the main bundle; Korean (and its Hangul
 * font) is fetched when first chosen. Korean falls back to English message by message.
 */
export async function loadCatalogue(language: Language): Promise<Catalogue> {
  if (language === 'en') return englishCatalogue;
  const [korean] = await Promise.all([
    import(/* webpackChunkName: "intl-kr" */ './compiled/kr.json'),
    import(/* webpackChunkName: "intl-kr" */ './koreanFont'),
  ]);
  return { ...englishCatalogue, ...(korean.default as unknown as Catalogue) };
}

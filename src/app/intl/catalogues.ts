import type { MessageFormatElement } from 'react-intl';
import type { Language } from '../../engine/types';
import home from './compiled/en.home.json';

/** A catalogue compiled to ICU ASTs at build time (npm run intl:compile). */
export type Catalogue = Record<string, MessageFormatElement[]>;

/** The Intl locale of each interface language: 'kr' is the product's name for Korean. */
export const INTL_LOCALE: Record<Language, string> = { en: 'en', kr: 'ko' };

/** The English messages the home screen's own code shows (messageParts.ts): in the entry point. */
export const homeCatalogue = home as unknown as Catalogue;

/**
 * The rest of the English messages, fetched with the first page or part that shows them: the
 * routes' and the API key form's loaders wait for loadPageMessages before they render, and
 * IntlRoot subscribes to their arrival.
 */
let pageCatalogue: Catalogue | null = null;
let pagesLoading: Promise<void> | null = null;
const pageListeners = new Set<() => void>();

/** Fetches the pages' English messages once; a failed fetch is tried again on the next call. */
export function loadPageMessages(): Promise<void> {
  pagesLoading ??= import(/* webpackChunkName: "intl-en-pages" */ './compiled/en.pages.json').then(
    (pages) => {
      pageCatalogue = pages.default as unknown as Catalogue;
      for (const listener of pageListeners) listener();
    },
    (error: unknown) => {
      pagesLoading = null;
      throw error;
    },
  );
  return pagesLoading;
}

export function subscribeToPageMessages(listener: () => void): () => void {
  pageListeners.add(listener);
  return () => pageListeners.delete(listener);
}

/** The pages' English messages, once loaded. */
export const pageMessages = (): Catalogue | null => pageCatalogue;

/**
 * What a language puts over the English messages: nothing for English; Korean (and its Hangul
 * font), fetched when first chosen, falls back to English message by message.
 */
export async function loadCatalogue(language: Language): Promise<Catalogue> {
  if (language === 'en') return {};
  const [korean] = await Promise.all([
    import(/* webpackChunkName: "intl-kr" */ './compiled/kr.json'),
    import(/* webpackChunkName: "intl-kr" */ './koreanFont'),
  ]);
  return korean.default as unknown as Catalogue;
}

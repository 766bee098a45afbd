import type { MessageFormatElement } from 'react-intl';
import type { Language } from '../../engine/types';
import home from './compiled/en.home.json';
import type { MessagePart } from './messageParts';

/** A catalogue compiled to ICU ASTs at build time (npm run intl:compile). */
export type Catalogue = Record<string, MessageFormatElement[]>;

/** The Intl locale of each interface language: 'kr' is the product's name for Korean. */
export const INTL_LOCALE: Record<Language, string> = { en: 'en', kr: 'ko' };

/** The English messages the home screen's own code shows (messageParts.ts): in the entry point. */
export const homeCatalogue = home as unknown as Catalogue;

/**
 * The rest of the English messages, in parts (messageParts.ts), each fetched with the first
 * page or part that shows it: the routes' and the API key form's loaders wait for theirs
 * before they render, and IntlRoot subscribes to their arrival.
 */
type LaterPart = Exclude<MessagePart, 'home'>;

const download: Record<LaterPart, () => Promise<{ default: unknown }>> = {
  pages: () => import(/* webpackChunkName: "intl-en-pages" */ './compiled/en.pages.json'),
  profile: () => import(/* webpackChunkName: "intl-en-profile" */ './compiled/en.profile.json'),
};
const loading: Partial<Record<LaterPart, Promise<void>>> = {};
/** Every later part loaded so far, in one catalogue: a new object at each arrival. */
let laterCatalogue: Catalogue = {};
const listeners = new Set<() => void>();

/** Fetches the English messages of `part` once; a failed fetch is tried again on the next call. */
export function loadMessages(part: LaterPart): Promise<void> {
  loading[part] ??= download[part]().then(
    (messages) => {
      laterCatalogue = { ...laterCatalogue, ...(messages.default as Catalogue) };
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      delete loading[part];
      throw error;
    },
  );
  return loading[part];
}

export function subscribeToLaterMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The English messages of every later part loaded so far. */
export const laterMessages = (): Catalogue => laterCatalogue;

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

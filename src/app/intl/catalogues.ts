import type { MessageFormatElement } from 'react-intl';
import type { Language } from '../../engine/types';
import home from './compiled/en.home.json';
import { laterMessages as laterParts, registerMessageParts } from '../../shared/messageParts';

/** A catalogue compiled to ICU ASTs at build time (npm run intl:compile). */
export type Catalogue = Record<string, MessageFormatElement[]>;

/** The Intl locale of each interface language: 'kr' is the product's name for Korean. */
export const INTL_LOCALE: Record<Language, string> = { en: 'en', kr: 'ko' };

/** The English messages the home screen's own code shows (messageParts.ts): in the entry point. */
export const homeCatalogue = home as unknown as Catalogue;

/**
 * The rest of the English messages, in parts (messageParts.ts), each fetched with the first
 * page or part that shows it (src/shared/messageParts.ts): the routes' and the API key form's
 * loaders wait for theirs before they render, a feature's views loaded on demand for theirs,
 * and IntlRoot subscribes to their arrival.
 */
const part = (load: () => Promise<{ default: unknown }>) => () =>
  load().then((messages) => messages.default as Record<string, unknown>);

registerMessageParts({
  pages: part(() => import(/* webpackChunkName: "intl-en-pages" */ './compiled/en.pages.json')),
  profile: part(
    () => import(/* webpackChunkName: "intl-en-profile" */ './compiled/en.profile.json'),
  ),
  sharing: part(
    () => import(/* webpackChunkName: "intl-en-sharing" */ './compiled/en.sharing.json'),
  ),
  localNetwork: part(
    () => import(/* webpackChunkName: "intl-en-local-network" */ './compiled/en.localNetwork.json'),
  ),
  memory: part(() => import(/* webpackChunkName: "intl-en-memory" */ './compiled/en.memory.json')),
  // In the lorebook panel's own chunk: one download when the panel is first opened.
  lore: part(() => import(/* webpackChunkName: "lorebook" */ './compiled/en.lore.json')),
  // With what the game says when the model gives trouble (a wait, a model no longer offered):
  // most games never show it.
  troubles: part(
    () => import(/* webpackChunkName: "model-troubles" */ './compiled/en.troubles.json'),
  ),
  // With "Illustrate this story": only a key whose provider draws fetches them.
  illustrate: part(
    () => import(/* webpackChunkName: "pictures-offer" */ './compiled/en.illustrate.json'),
  ),
  // With the pictures' views: a story never illustrated never fetches them.
  pictures: part(
    () => import(/* webpackChunkName: "pictures-drawing" */ './compiled/en.pictures.json'),
  ),
});

export { loadMessages, subscribeToLaterMessages } from '../../shared/messageParts';

/** The English messages of every later part loaded so far. */
export const laterMessages = (): Catalogue => laterParts() as Catalogue;

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

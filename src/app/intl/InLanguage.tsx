import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import type { Language } from '../../engine/types';
import { PageLoading } from '../layout/Layout';
import {
  INTL_LOCALE,
  homeCatalogue,
  laterMessages,
  loadCatalogue,
  type Catalogue,
} from './catalogues';

/** The English messages at hand: the home screen's and the parts loaded (the route's with it). */
const english = (): Catalogue => ({ ...homeCatalogue, ...laterMessages() });

type Loaded = { language: Language; messages: Catalogue } | { language: Language; failed: true };

/**
 * Its children in a language of their own, whatever the interface's: a published story's page
 * speaks the language the story was written in. English is at hand; another catalogue (and for
 * Korean its Hangul font) loads as IntlRoot loads it, and if it cannot, the children stay in
 * the interface's language.
 */
export function InLanguage({ language, children }: { language: Language; children: ReactNode }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (language === 'en') return undefined;
    let current = true;
    loadCatalogue(language).then(
      (messages) => current && setLoaded({ language, messages: { ...english(), ...messages } }),
      (error: unknown) => {
        console.error(`Could not load the '${language}' catalogue`, error);
        if (current) setLoaded({ language, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [language]);

  const shown = language === 'en' ? { language, messages: english() } : loaded;
  if (shown === null || shown.language !== language) return <PageLoading />;
  if ('failed' in shown) return children;
  return (
    <IntlProvider locale={INTL_LOCALE[language]} defaultLocale="en" messages={shown.messages}>
      {children}
    </IntlProvider>
  );
}

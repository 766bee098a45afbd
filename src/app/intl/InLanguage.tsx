import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import type { Language } from '../../engine/types';
import { PageLoading } from '../layout/Layout';
import {
  INTL_LOCALE,
  homeCatalogue,
  laterMessages,
  loadCatalogue,
  loadMessages,
  type Catalogue,
} from './catalogues';

/**
 * The English messages a published story's page shows (the home screen's, and the 'pages' and
 * 'sharing' parts, which the route has usually fetched already), with another language's over
 * them.
 */
async function catalogueOf(language: Language): Promise<Catalogue> {
  const [, , over] = await Promise.all([
    loadMessages('pages'),
    loadMessages('sharing'),
    loadCatalogue(language),
  ]);
  return { ...homeCatalogue, ...laterMessages(), ...over };
}

type Loaded = { language: Language; messages: Catalogue } | { language: Language; failed: true };

/**
 * Its children in a language of their own, whatever the interface's: a published story's page
 * speaks the language the story was written in. Its catalogue (and for Korean its Hangul font)
 * loads as IntlRoot loads it, and if it cannot, the children stay in the interface's language.
 */
export function InLanguage({ language, children }: { language: Language; children: ReactNode }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    let current = true;
    catalogueOf(language).then(
      (messages) => current && setLoaded({ language, messages }),
      (error: unknown) => {
        console.error(`Could not load the '${language}' catalogue`, error);
        if (current) setLoaded({ language, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [language]);

  const shown = loaded;
  if (shown === null || shown.language !== language) return <PageLoading />;
  if ('failed' in shown) return children;
  return (
    <IntlProvider locale={INTL_LOCALE[language]} defaultLocale="en" messages={shown.messages}>
      {children}
    </IntlProvider>
  );
}

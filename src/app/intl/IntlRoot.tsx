import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { selectLanguage } from '../../features/settings';
import type { Language } from '../../engine/types';
import { useAppSelector } from '../../shared/hooks';
import { INTL_LOCALE, englishCatalogue, loadCatalogue, type Catalogue } from './catalogues';

interface Loaded {
  language: Language;
  messages: Catalogue;
}

/** Provides the chosen language's messages; switching takes effect as soon as they load. */
export function IntlRoot({ children }: { children: ReactNode }) {
  const language = useAppSelector(selectLanguage);
  const [loaded, setLoaded] = useState<Loaded>({ language: 'en', messages: englishCatalogue });

  useEffect(() => {
    let current = true;
    loadCatalogue(language).then(
      (messages) => current && setLoaded({ language, messages }),
      (error: unknown) => console.error(`Could not load the '${language}' catalogue`, error),
    );
    return () => {
      current = false;
    };
  }, [language]);

  useEffect(() => {
    document.documentElement.lang = INTL_LOCALE[loaded.language];
  }, [loaded.language]);

  return (
    <IntlProvider
      locale={INTL_LOCALE[loaded.language]}
      defaultLocale="en"
      messages={loaded.messages}
    >
      {children}
    </IntlProvider>
  );
}

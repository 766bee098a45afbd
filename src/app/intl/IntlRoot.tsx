import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { selectLanguage } from '../../features/settings';
import type { Language } from '../../engine/types';
import { useAppSelector } from '../../shared/hooks';
import {
  INTL_LOCALE,
  homeCatalogue,
  loadCatalogue,
  laterMessages,
  subscribeToLaterMessages,
  type Catalogue,
} from './catalogues';

interface Loaded {
  language: Language;
  /** The language's messages over the English ones (none for English). */
  messages: Catalogue;
}

const NOTHING_OVER_ENGLISH: Catalogue = {};

/** Provides the chosen language's messages; switching takes effect as soon as they load. */
export function IntlRoot({ children }: { children: ReactNode }) {
  const language = useAppSelector(selectLanguage);
  const [loaded, setLoaded] = useState<Loaded>({ language: 'en', messages: NOTHING_OVER_ENGLISH });
  // Read during render, so a page whose loader waited for these renders with them.
  const later = useSyncExternalStore(subscribeToLaterMessages, laterMessages);
  const messages = useMemo(
    () => ({ ...homeCatalogue, ...later, ...loaded.messages }),
    [later, loaded.messages],
  );

  useEffect(() => {
    let current = true;
    loadCatalogue(language).then(
      (over) => current && setLoaded({ language, messages: over }),
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
    <IntlProvider locale={INTL_LOCALE[loaded.language]} defaultLocale="en" messages={messages}>
      {children}
    </IntlProvider>
  );
}

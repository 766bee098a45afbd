import type { ComponentType, ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { Language } from '../../../engine/types';
import { PlayLink } from './PlayLink';
import { PublishedStoryView } from './PublishedStoryView';
import { useGetPublishedStoryQuery } from './publishedStoryApi';
import './published.css';

/**
 * Shows its children in a language's messages: the app's catalogues, which a feature cannot
 * import, so the app hands the page this frame (src/app/PublishedStoryRoute.tsx).
 */
export type LanguageFrame = ComponentType<{ language: Language; children: ReactNode }>;

interface PublishedStoryPageProps {
  /** The id in the page's path, /story/<id>; anything, as a visitor may have typed it. */
  id: string;
  InLanguage: LanguageFrame;
}

/**
 * /story/<id>: a published story, for anyone, with no wallet and no key (DESIGN.md, "Cloud
 * saves and published stories"), in the language it was written in. While it loads, or when
 * it is not published (any more), the page says so in the interface language.
 */
export function PublishedStoryPage({ id, InLanguage }: PublishedStoryPageProps) {
  const { data, error, isFetching, refetch } = useGetPublishedStoryQuery(id);
  if (data) {
    return (
      <InLanguage language={data.language}>
        <PublishedStoryView story={data} />
      </InLanguage>
    );
  }
  if (data === null) return <StoryNotPublished />;
  // While a retry runs, the loading line replaces the error.
  if (error !== undefined && !isFetching) {
    return (
      <section className="panel narrow published-missing">
        <p role="alert" className="published-missing__alert">
          <span aria-hidden="true" className="error-icon">
            !
          </span>
          <FormattedMessage id="published.error" />
        </p>
        {/* The backend's own words, for whoever reports the problem. */}
        {error.message && <p className="muted published-missing__detail">{error.message}</p>}
        <div className="button-row published-missing__actions">
          <button type="button" className="button" onClick={refetch}>
            <FormattedMessage id="common.retry" />
          </button>
          <PlayLink />
        </div>
      </section>
    );
  }
  return (
    <p className="page-loading" role="status">
      <FormattedMessage id="app.loadingPage" />
    </p>
  );
}

function StoryNotPublished() {
  return (
    <section className="panel narrow published-missing">
      <h1>
        <FormattedMessage id="published.missing" />
      </h1>
      <div className="button-row published-missing__actions">
        <PlayLink />
      </div>
    </section>
  );
}

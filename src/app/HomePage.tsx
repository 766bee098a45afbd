import { Suspense, lazy } from 'react';
import { FormattedMessage } from 'react-intl';
import { loadMessages } from './intl/catalogues';
import { PageLoading } from './layout/Layout';

const STEPS = ['home.steps.wallet', 'home.steps.key', 'home.steps.play', 'home.steps.score'];

/**
 * The API key form (SPEC.md route /), fetched with the home screen but after it, with the
 * messages of the pages (its own among them).
 */
const ApiKeyView = lazy(async () => {
  const [{ ApiKeyView: View }] = await Promise.all([
    import(/* webpackChunkName: "api-key" */ '../features/game/views/ApiKeyView'),
    loadMessages('pages'),
  ]);
  return { default: View };
});

/** SPEC.md section 2, route /: the API key screen inside the common layout. */
export function HomePage() {
  return (
    <section className="home">
      <div className="hero">
        <p className="eyebrow">
          <FormattedMessage id="app.tagline" />
        </p>
        <h1>
          <FormattedMessage id="home.heading" />
        </h1>
        <p className="lead">
          <FormattedMessage id="home.intro" />
        </p>
      </div>
      <Suspense fallback={<PageLoading />}>
        <ApiKeyView />
      </Suspense>
      <div className="panel">
        <h2>
          <FormattedMessage id="home.steps.title" />
        </h2>
        <ol className="steps">
          {STEPS.map((id) => (
            <li key={id}>
              <FormattedMessage id={id} />
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

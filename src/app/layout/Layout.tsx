import { Suspense } from 'react';
import { FormattedMessage } from 'react-intl';
import { Outlet, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../ErrorBoundary';
import { Header } from './Header';

/** Every route's frame: the header above, the page below (pages load as their own chunks). */
export function Layout() {
  const { pathname } = useLocation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        <FormattedMessage id="app.skipToContent" />
      </a>
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        {/* A page that fails keeps the header; moving to another page clears the error. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}

export function PageLoading() {
  return (
    <p className="page-loading" role="status">
      <FormattedMessage id="app.loadingPage" />
    </p>
  );
}

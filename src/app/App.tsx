import { useSyncExternalStore, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { AppStore } from './store';
import { ErrorBoundary } from './ErrorBoundary';
import { IntlRoot } from './intl/IntlRoot';
import { AppRoutes } from './routes';

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <WhenRestored store={store}>
        <IntlRoot>
          <BrowserRouter>
            <ErrorBoundary>
              <AppRoutes />
            </ErrorBoundary>
          </BrowserRouter>
        </IntlRoot>
      </WhenRestored>
    </Provider>
  );
}

/** Waits for the saved settings, so a Korean player never sees an English flash. */
function WhenRestored({ store, children }: { store: AppStore; children: ReactNode }) {
  const restored = useSyncExternalStore(store.subscribe, store.isRestored);
  return restored ? children : null;
}

/**
 * The one way a view test renders (the Redux docs' "Writing tests" pattern): the ui inside the
 * providers the app puts around it (src/app/App.tsx): the react-redux Provider over a real
 * store made by `makeStore`, an IntlProvider with the compiled catalogue of the language (as
 * IntlRoot gives it once loaded), and a MemoryRouter when the test names a route. A store it
 * makes runs the app's flows, as makeStore's do: the test stops it (store.stop()) when done.
 */
import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { INTL_LOCALE, type Catalogue } from '../../src/app/intl/catalogues';
import english from '../../src/app/intl/compiled/en.json';
import korean from '../../src/app/intl/compiled/kr.json';
import { makeStore, type AppStore, type StoreOptions } from '../../src/app/store';
import type { Language } from '../../src/engine/types';

const englishCatalogue = english as unknown as Catalogue;

/**
 * Each language's messages as IntlRoot has them once the pages' are loaded: Korean falls back
 * to English message by message.
 */
export const CATALOGUES: Record<Language, Catalogue> = {
  en: englishCatalogue,
  kr: { ...englishCatalogue, ...(korean as unknown as Catalogue) },
};

export interface ExtendedRenderOptions
  extends Omit<RenderOptions, 'queries' | 'wrapper'>, StoreOptions {
  /** The store to render over; else one is made from the store options (preloadedState, context, ...). */
  store?: AppStore;
  /** The catalogue shown; the store's chosen language unless told. */
  language?: Language;
  /** Where a MemoryRouter starts; without it the ui is rendered outside any router. */
  route?: string;
}

export interface RenderWithProvidersResult extends RenderResult {
  store: AppStore;
  /** A user-event instance for this render, set up the first time it is asked for. */
  readonly user: ReturnType<typeof userEvent.setup>;
}

export function renderWithProviders(
  ui: ReactElement,
  {
    preloadedState,
    context,
    persist,
    backend,
    store = makeStore({ preloadedState, context, persist, backend }),
    language,
    route,
    ...renderOptions
  }: ExtendedRenderOptions = {},
): RenderWithProvidersResult {
  const shown = language ?? store.getState().settings.language;
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <Provider store={store}>
        <IntlProvider locale={INTL_LOCALE[shown]} defaultLocale="en" messages={CATALOGUES[shown]}>
          {route === undefined ? (
            children
          ) : (
            <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
          )}
        </IntlProvider>
      </Provider>
    );
  }
  const result = render(ui, { wrapper: Wrapper, ...renderOptions });
  let user: ReturnType<typeof userEvent.setup> | undefined;
  return {
    ...result,
    store,
    get user() {
      return (user ??= userEvent.setup());
    },
  };
}

/**
 * @jest-environment jsdom
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../src/app/App';
import { ErrorBoundary, reportCaughtError } from '../../src/app/ErrorBoundary';
import { makeStore, type AppStore } from '../../src/app/store';
import { selectLanguage } from '../../src/features/settings';
import { renderWithProviders } from '../support/render';

describe('the app shell', () => {
  test('shows the common layout and switches the interface to Korean at once', async () => {
    // The app puts its own providers (and its router) around the routes; the helper's are
    // over the same store, and the app's IntlRoot is the one its screens read.
    const store = makeStore();
    renderWithProviders(<App store={store} />, { store });

    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(nav).getByRole('link', { name: 'Leaderboard' }).getAttribute('href')).toBe(
      '/leaderboard',
    );
    expect(screen.getByRole('link', { name: /Taleweaver/ }).getAttribute('href')).toBe('/');

    await userEvent.selectOptions(screen.getByLabelText('Language'), 'kr');

    expect(selectLanguage(store.getState())).toBe('kr');
    expect(await screen.findByRole('link', { name: '리더보드' })).toBeTruthy();
    expect(screen.getByLabelText('언어')).toBeTruthy();
    expect(document.documentElement.lang).toBe('ko');
  });
});

describe('ErrorBoundary', () => {
  function Broken({ error }: { error: Error }): never {
    throw error;
  }
  let store: AppStore | undefined;
  const renderBroken = (error: Error) =>
    ({ store } = renderWithProviders(
      <ErrorBoundary>
        <Broken error={error} />
      </ErrorBoundary>,
      { language: 'en' },
    ));

  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    store?.stop();
    store = undefined;
    jest.restoreAllMocks();
  });

  test('a failed chunk download says so and offers Reload and Return to Home', () => {
    const error = Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' });
    renderBroken(error);
    expect(screen.getByRole('heading', { name: 'Loading chunk failed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  });

  test('any other error shows the unexpected-error page', () => {
    renderBroken(new TypeError('x is undefined'));
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error' })).toBeTruthy();
  });

  test('the root logs an unexpected error it caught, once, and not a failed download', () => {
    const log = jest.mocked(console.error);
    const download = Object.assign(new Error('Loading chunk 7 failed.'), {
      name: 'ChunkLoadError',
    });
    reportCaughtError(download, { componentStack: '\n    at Panel' });
    expect(log).not.toHaveBeenCalled();
    const error = new TypeError('x is undefined');
    reportCaughtError(error, { componentStack: '\n    at Panel' });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('Unexpected application error', error, '\n    at Panel');
  });
});

/**
 * @jest-environment jsdom
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { Provider } from 'react-redux';
import { baseApi } from '../../../src/api/baseApi';
import { englishCatalogue } from '../../../src/app/intl/catalogues';
import {
  injectBackendApi,
  makeStore,
  type AppStore,
  type StoreOptions,
} from '../../../src/app/store';
import { SaveResultButton } from '../../../src/features/leaderboard';
import type { GameResult } from '../../../src/features/leaderboard/resultsApi';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';

const RESULT: GameResult = {
  score: 88,
  ending_type: 'Heroic Victory',
  character_name: 'Ada Quill',
  genre: 'Fantasy',
  turn_count: 9,
  detailed_stats: { turnCount: 9 },
};

let store: AppStore;

function renderButton(options?: StoreOptions) {
  injectBackendApi(baseApi);
  store = makeStore(options);
  const onSaved = jest.fn();
  render(
    <Provider store={store}>
      <IntlProvider locale="en" messages={englishCatalogue}>
        <SaveResultButton result={RESULT} onSaved={onSaved} />
      </IntlProvider>
    </Provider>,
  );
  return { onSaved, button: screen.getByRole('button', { name: 'Save Adventure Results' }) };
}

afterEach(() => {
  store.dispatch(baseApi.util.resetApiState());
  window.localStorage.clear();
  jest.restoreAllMocks();
});

describe('SaveResultButton', () => {
  test('without a wallet address it says so and can be tried again', async () => {
    const { button, onSaved } = renderButton();
    await userEvent.click(button);

    expect((await screen.findByRole('alert')).textContent).toContain('No wallet address found.');
    expect(screen.getByRole('button', { name: 'Save Adventure Results' })).toBe(button);
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(onSaved).not.toHaveBeenCalled();
  });

  test('with an address but no token it asks for authentication', async () => {
    window.localStorage.setItem('current_wallet_address', ADDRESS);
    const { button, onSaved } = renderButton();
    await userEvent.click(button);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Authentication token not found.',
    );
    expect(onSaved).not.toHaveBeenCalled();
  });

  test('reads the wallet when clicked, not when first shown', async () => {
    const { button } = renderButton();
    window.localStorage.setItem('current_wallet_address', ADDRESS);
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Authentication token not found.',
    );
  });

  test('shows Saving... while the request runs', async () => {
    window.localStorage.setItem('current_wallet_address', ADDRESS);
    window.localStorage.setItem(`auth_token_${ADDRESS}`, 'a.b.c');
    const { button } = renderButton({ backend: () => new Promise(() => undefined) });
    await userEvent.click(button);

    const busy = await screen.findByRole('button', { name: 'Saving...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('a backend that cannot be reached gives the unexpected-error line', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    window.localStorage.setItem('current_wallet_address', ADDRESS);
    window.localStorage.setItem(`auth_token_${ADDRESS}`, 'a.b.c');
    const { button, onSaved } = renderButton({
      backend: () => Promise.reject(new Error('offline')),
    });
    await userEvent.click(button);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'An unexpected error occurred.',
    );
    expect(onSaved).not.toHaveBeenCalled();
  });
});

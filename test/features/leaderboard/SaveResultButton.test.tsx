/**
 * @jest-environment jsdom
 */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baseApi } from '../../../src/api/baseApi';
import { injectBackendApi, type AppStore, type StoreOptions } from '../../../src/app/store';
import type { Backend, WalletSession } from '../../../src/api';
import { SaveResultButton } from '../../../src/features/leaderboard';
import type { GameResult } from '../../../src/features/leaderboard/resultsApi';
import {
  connectRequested,
  initialWalletState,
  signatureRequested,
  type WalletState,
} from '../../../src/features/wallet';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';

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

function renderButton(wallet: WalletState = initialWalletState, options?: StoreOptions) {
  injectBackendApi(baseApi);
  const onSaved = jest.fn();
  ({ store } = renderWithProviders(<SaveResultButton result={RESULT} onSaved={onSaved} />, {
    ...options,
    preloadedState: { wallet },
  }));
  return { onSaved, button: screen.getByRole('button', { name: 'Save Adventure Results' }) };
}

/** The wallet slice of an account whose signature is still awaited: an address, no token. */
const signing: WalletState = { ...initialWalletState, status: 'signing', address: ADDRESS };

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

  test('with an account still signing in (no token yet) it asks for authentication', async () => {
    const { button, onSaved } = renderButton(signing);
    await userEvent.click(button);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Authentication token not found.',
    );
    expect(onSaved).not.toHaveBeenCalled();
  });

  test('reads the wallet when clicked, not when first shown', async () => {
    const { button } = renderButton();
    act(() => {
      store.dispatch(connectRequested());
      store.dispatch(signatureRequested(ADDRESS));
    });
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Authentication token not found.',
    );
  });

  test('ignores what the storage holds: the wallet slice is the session', async () => {
    // A token left under SPEC.md's keys, with no session restored by the wallet: not used.
    window.localStorage.setItem('current_wallet_address', ADDRESS);
    window.localStorage.setItem(`auth_token_${ADDRESS}`, 'a.b.c');
    const { button } = renderButton();
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain('No wallet address found.');
  });

  test('sends as the verified wallet, with the token its session holds', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const wallet = verifiedWallet(ADDRESS);
    const sentAs: WalletSession[] = [];
    const backend = async (): Promise<Backend> =>
      ({
        anon: {} as Backend['anon'],
        forWallet(session: WalletSession) {
          sentAs.push(session);
          throw new Error('offline');
        },
      }) as Backend;
    const { button } = renderButton(wallet, { backend });
    await userEvent.click(button);

    await screen.findByRole('alert');
    expect(sentAs).toEqual([wallet.session]);
  });

  test('shows Saving... while the request runs', async () => {
    const { button } = renderButton(verifiedWallet(ADDRESS), {
      backend: () => new Promise(() => undefined),
    });
    await userEvent.click(button);

    const busy = await screen.findByRole('button', { name: 'Saving...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('a backend that cannot be reached gives the unexpected-error line', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { button, onSaved } = renderButton(verifiedWallet(ADDRESS), {
      backend: () => Promise.reject(new Error('offline')),
    });
    await userEvent.click(button);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'An unexpected error occurred.',
    );
    expect(onSaved).not.toHaveBeenCalled();
  });
});

/**
 * @jest-environment jsdom
 */
import { fireEvent, screen } from '@testing-library/react';
import en from '../../../src/app/intl/messages/en.json';
import { makeStore } from '../../../src/app/store';
import { WalletControl, disconnectRequested } from '../../../src/features/wallet';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';
import {
  initialWalletState,
  type WalletErrorCode,
  type WalletState,
} from '../../../src/features/wallet/walletSlice';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';

function renderControl(wallet: Partial<WalletState>) {
  const store = makeStore({
    preloadedState: {
      wallet: { ...initialWalletState, ...wallet },
    },
  });
  // Spied on before the render: the control's handlers keep the dispatch they rendered with.
  const dispatched = jest.spyOn(store, 'dispatch');
  renderWithProviders(<WalletControl />, { store, route: '/' });
  return Object.assign(store, { dispatched });
}

test('disconnected: Connect Wallet asks to connect', () => {
  const store = renderControl({});
  fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }));
  expect(store.getState().wallet.status).toBe('connecting');
});

test('while connecting or signing: Signing..., and not pressable', () => {
  renderControl({ status: 'signing', address: ADDRESS });
  const button = screen.getByRole('button', { name: 'Signing...' });
  expect((button as HTMLButtonElement).disabled).toBe(true);
});

test('verified: the shortened address with a tick, and a menu with Profile and Disconnect', () => {
  const store = renderControl(verifiedWallet(ADDRESS));
  const toggle = screen.getByRole('button', { name: 'Wallet 0xabcd...ef01, verified' });
  expect(toggle.textContent).toContain('0xabcd...ef01');
  expect(toggle.textContent).toContain('✓');
  expect(toggle.getAttribute('aria-expanded')).toBe('false');

  fireEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  expect(screen.getByRole('menuitem', { name: 'Profile' }).getAttribute('href')).toBe('/profile');

  fireEvent.keyDown(document, { key: 'Escape' });
  expect(screen.queryByRole('menu')).toBeNull();

  fireEvent.click(toggle);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Disconnect' }));
  // Disconnect is the saga's to carry out (clear credentials, reload); the control asks for it.
  expect(store.dispatched).toHaveBeenLastCalledWith(disconnectRequested());
});

test('several wallets: a dialog to choose one or cancel', () => {
  const store = renderControl({
    status: 'choosing',
    choices: [
      { id: 'one', name: 'First Wallet', icon: '' },
      { id: 'two', name: 'Second Wallet', icon: '' },
    ],
  });
  expect(screen.getByRole('dialog', { name: 'Choose a wallet' })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Second Wallet' }));
  expect(store.getState().wallet.status).toBe('connecting');
});

test('every wallet error has a message in the catalogue, shown as an alert', () => {
  const codes: WalletErrorCode[] = [
    'noWallet',
    'authFailed',
    'verificationFailed',
    'inProgress',
    'rejected',
    'timeout',
    'network',
    'checkFailed',
    'restoreFailed',
    'accountChangeFailed',
    'disconnectFailed',
    'rateLimited',
    'smartAccountUnchecked',
    'chainUnavailable',
  ];
  for (const code of codes) expect(en).toHaveProperty([`wallet.error.${code}`]);
  renderControl({ error: 'noWallet' });
  expect(screen.getByRole('alert').textContent).toContain(
    'Please install MetaMask or other Web3 wallet.',
  );
  fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByRole('alert')).toBeNull();
});

/**
 * @jest-environment jsdom
 *
 * The key screen after the page reloaded to allow the player's server (connectPolicy.ts): it
 * shows what the player had typed and submits the check again once the wallet session is back.
 */
import { act, screen } from '@testing-library/react';
import type { AppStore } from '../../../src/app/store';
import { initialGameState } from '../../../src/features/game/gameSlice';
import { ApiKeyView } from '../../../src/features/game/views/ApiKeyView';
import { readPendingKeyCheck, reloadToAllow } from '../../../src/features/llm/connectPolicy';
import { initialSettingsState } from '../../../src/features/settings';
import { initialWalletState, type WalletState } from '../../../src/features/wallet';
import { sessionRestored } from '../../../src/features/wallet/walletSlice';
import { fakeConnectPage } from '../../fixtures/connectPage';
import { verifiedSession, verifiedWallet } from '../../fixtures/walletSessions';
import { httpModelClient } from '../../../src/features/llm';
import { renderWithProviders } from '../../support/render';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';
const CHECK = {
  provider: 'custom',
  model: 'my-model',
  baseUrl: 'https://llm.example.test/v1',
  imageModel: 'flux-schnell',
  apiKey: 'sk-typed-before-the-reload',
};

/** A fetch that never answers: the resumed check stays in progress. */
const pendingFetch = (() => new Promise<Response>(() => undefined)) as typeof fetch;

let store: AppStore;
afterEach(() => {
  store.stop();
  window.sessionStorage.clear();
});

/** The check kept in this tab's sessionStorage, as the saga keeps it before reloading. */
function keepCheckAsBeforeTheReload() {
  const page = { ...fakeConnectPage(), sessionStorage: window.sessionStorage };
  reloadToAllow(page, 'https://llm.example.test', CHECK);
}

function renderKeyScreen(wallet: WalletState) {
  ({ store } = renderWithProviders(<ApiKeyView />, {
    preloadedState: { game: initialGameState, wallet, settings: initialSettingsState },
    context: { model: httpModelClient(pendingFetch) },
    language: 'en',
    route: '/',
  }));
}

test('the kept check is shown and submitted again, then forgotten', async () => {
  keepCheckAsBeforeTheReload();
  renderKeyScreen(verifiedWallet(ADDRESS));
  expect(store.getState().game.keyCheck).toEqual({ status: 'checking' });
  expect(store.getState().settings).toMatchObject({
    provider: 'custom',
    model: 'my-model',
    baseUrl: 'https://llm.example.test/v1',
    // The image model typed with it (issue 41): the reload came before the settings were kept.
    imageModel: 'flux-schnell',
  });
  expect(screen.getByLabelText<HTMLInputElement>('Base URL').value).toBe(CHECK.baseUrl);
  expect(screen.getByLabelText<HTMLInputElement>('Image model (for pictures)').value).toBe(
    CHECK.imageModel,
  );
  expect(screen.getByLabelText<HTMLInputElement>('API key').value).toBe(CHECK.apiKey);
  expect(screen.getByRole('button', { name: 'Verifying...' })).toBeTruthy();
  expect(readPendingKeyCheck(window.sessionStorage)).toBeNull();
});

test('it waits for the wallet session to be back before submitting', async () => {
  keepCheckAsBeforeTheReload();
  renderKeyScreen(initialWalletState);
  expect(store.getState().game.keyCheck).toEqual({ status: 'idle' });
  expect(readPendingKeyCheck(window.sessionStorage)).not.toBeNull();
  act(() => {
    store.dispatch(sessionRestored(verifiedSession(ADDRESS)));
  });
  expect(store.getState().game.keyCheck).toEqual({ status: 'checking' });
  expect(readPendingKeyCheck(window.sessionStorage)).toBeNull();
});

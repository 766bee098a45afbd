/**
 * The wallet session's transitions (SPEC.md section 4), replayed with expectSaga over the real
 * wallet reducer, a test wallet with real keys, and the real server on PGlite.
 */
import { combineReducers } from '@reduxjs/toolkit';
import { makeStore } from '../../../src/app/store';
import { expectSaga } from 'redux-saga-test-plan';
import { DEFAULT_ANON_KEY } from '../../../src/api/backend';
import { createBackend } from '../../../src/api/supabaseBackend';
import type { WalletEnvironment } from '../../../src/features/wallet';
import { storeSignIn, tokenExpiry } from '../../../src/features/wallet/session';
import { checkSession, walletSaga } from '../../../src/features/wallet/walletSaga';
import {
  connectRequested,
  disconnectRequested,
  initialWalletState,
  sessionEnded,
  sessionRestored,
  signInFailed,
  signatureRequested,
  signedIn,
  walletChoiceOffered,
  walletChosen,
  walletSlice,
  type WalletState,
} from '../../../src/features/wallet/walletSlice';
import { MemoryStorage, TestWallet } from '../../fixtures/testWallet';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../../server/support/databases';
import { TEST_JWT_SECRET, startTestServer, type TestServer } from '../../server/support/testServer';
import { TokenAuthority } from '../../../server/auth';

let server: TestServer;
beforeAll(async () => {
  const [pglite] = testBackends();
  server = await startTestServer(pglite!);
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close());

const reducer = combineReducers({ wallet: walletSlice.reducer });

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const state = (wallet: Partial<WalletState> = {}) => ({
  wallet: { ...initialWalletState, ...wallet },
});

function environment(wallets: TestWallet[], storage = new MemoryStorage()) {
  const url = new URL(server.url);
  const reloads: string[] = [];
  const env: WalletEnvironment = {
    discoverWallets: async () =>
      wallets.map((provider, i) => ({
        info: { id: `wallet-${i}`, name: `Test Wallet ${i}`, icon: '' },
        provider,
      })),
    storage,
    site: { host: url.host, origin: url.origin },
    reloadHome: () => reloads.push('/'),
    now: () => Date.now(),
  };
  return { env, storage, reloads };
}

const run = (env: WalletEnvironment, wallet: Partial<WalletState> = {}) =>
  expectSaga(walletSaga)
    .withReducer(reducer, state(wallet))
    .provide({
      getContext: (name) =>
        name === 'backend'
          ? async () => server.backend
          : name === 'walletEnvironment'
            ? env
            : undefined,
    });

describe('connecting', () => {
  test('connect, sign and get the server token: verified, stored under the spec keys', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    const result = await run(env)
      .dispatch(connectRequested())
      .put(signatureRequested(wallet.address))
      .put(signedIn(wallet.address))
      .silentRun(1500);
    expect(result.storeState.wallet).toEqual(
      expect.objectContaining({ status: 'verified', address, error: null }),
    );
    expect(storage.getItem('current_wallet_address')).toBe(address);
    expect(storage.getItem(`signature_verified_${address}`)).toBe('true');
    expect(storage.getItem(`signature_${address}`)).toMatch(/^0x[0-9a-f]{130}$/);
    const token = storage.getItem(`auth_token_${address}`)!;
    // A token the server itself accepts, for this wallet, for 24 hours.
    const claims = await new TokenAuthority(TEST_JWT_SECRET, DEFAULT_ANON_KEY).claimsFor(
      `Bearer ${token}`,
    );
    expect(claims).toEqual(
      expect.objectContaining({ role: 'authenticated', wallet_address: address }),
    );
    expect(tokenExpiry(token)! - Date.now() / 1000).toBeGreaterThan(86_000);
    expect(wallet.calls.slice(0, 3)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'personal_sign',
    ]);
  });

  test('without any wallet: install a wallet', async () => {
    const { env } = environment([]);
    const result = await run(env)
      .dispatch(connectRequested())
      .put(signInFailed('noWallet'))
      .silentRun(800);
    expect(result.storeState.wallet.status).toBe('disconnected');
  });

  test('with two wallets the player picks one, and that one signs', async () => {
    const first = new TestWallet();
    const second = new TestWallet();
    const { env } = environment([first, second]);
    await run(env)
      .dispatch(connectRequested())
      .put(
        walletChoiceOffered([
          { id: 'wallet-0', name: 'Test Wallet 0', icon: '' },
          { id: 'wallet-1', name: 'Test Wallet 1', icon: '' },
        ]),
      )
      .delay(50)
      .dispatch(walletChosen('wallet-1'))
      .put(signedIn(second.address))
      .silentRun(1500);
    expect(first.calls).toEqual([]);
  });

  test('a refused request clears the auth state and says the player declined', async () => {
    const wallet = new TestWallet();
    wallet.mode = 'reject';
    const { env, storage } = environment([wallet]);
    const result = await run(env)
      .dispatch(connectRequested())
      .put(signInFailed('rejected'))
      .silentRun(800);
    expect(result.storeState.wallet.status).toBe('disconnected');
    expect(storage.length).toBe(0);
  });

  test('a signature from the wrong key is refused before it reaches the server', async () => {
    const wallet = new TestWallet();
    wallet.mode = 'wrongKey';
    const { env, storage } = environment([wallet]);
    await run(env)
      .dispatch(connectRequested())
      .put(signInFailed('verificationFailed'))
      .silentRun(1000);
    expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
  });

  test('when the nonce cannot be had, a stand-in nonce is signed and the server refuses it', async () => {
    const wallet = new TestWallet();
    const { env } = environment([wallet]);
    // A client with the wrong public key: the nonce request is refused; the login is not.
    const backend = createBackend({ url: server.url, anonKey: 'wrong-key' });
    await expectSaga(walletSaga)
      .withReducer(reducer, state())
      .provide({ getContext: (name) => (name === 'backend' ? async () => backend : env) })
      .dispatch(connectRequested())
      .put(signInFailed('authFailed'))
      .silentRun(1500);
  });

  test('a second Connect while signing says a signature is already in progress', async () => {
    // A real store: its dispatch drops what takeLeading is not waiting for, as in the app.
    const wallet = new TestWallet();
    wallet.latencyMs = 200;
    const { env } = environment([wallet]);
    const store = makeStore({
      backend: async () => server.backend,
      context: { walletEnvironment: env },
    });
    store.dispatch(connectRequested());
    await new Promise((resolve) => setTimeout(resolve, 100));
    store.dispatch(connectRequested());
    expect(store.getState().wallet.error).toBe('inProgress');
    await waitFor(() => store.getState().wallet.status === 'verified');
    expect(wallet.calls.filter((call) => call === 'eth_requestAccounts')).toHaveLength(1);
    expect(store.getState().wallet.error).toBeNull(); // cleared by the successful sign-in
    store.stop();
  });
});

describe('the session', () => {
  test('a session verified earlier in this browser is restored at start', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    await run(env).dispatch(connectRequested()).put(signedIn(wallet.address)).silentRun(2500);
    const result = await run(environment([wallet], storage).env)
      .put(sessionRestored(wallet.address.toLowerCase()))
      .silentRun(300);
    expect(result.storeState.wallet.status).toBe('verified');
  });

  test('switching to an account verified here adopts it; to a new one asks for a signature', async () => {
    const wallet = new TestWallet(3);
    const { env, storage } = environment([wallet]);
    const [first, second, third] = wallet.accounts.map((account) => account.address);
    // Accounts 2 and then 1 sign in, in this browser.
    wallet.switchTo(1);
    await run(env).dispatch(connectRequested()).put(signedIn(second!)).silentRun(1500);
    wallet.switchTo(0);
    await run(env).dispatch(connectRequested()).put(signedIn(first!)).silentRun(1500);

    // A new page load restores account 1 and watches the wallet, which switches twice.
    setTimeout(() => wallet.switchTo(1), 400);
    setTimeout(() => wallet.switchTo(2), 900);
    const result = await run(environment([wallet], storage).env)
      .put(sessionRestored(first!.toLowerCase()))
      .put(sessionRestored(second!.toLowerCase()))
      .put(sessionEnded())
      .put(connectRequested())
      .put(signedIn(third!))
      .silentRun(3000);
    expect(result.storeState.wallet.address).toBe(third!.toLowerCase());
  }, 15_000);

  test('no accounts any more clears the session', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    await run(env).dispatch(connectRequested()).put(signedIn(wallet.address)).silentRun(2500);
    setTimeout(() => wallet.lock(), 400);
    const result = await run(environment([wallet], storage).env)
      .put(sessionEnded())
      .silentRun(900);
    expect(result.storeState.wallet.status).toBe('disconnected');
    expect(storage.getItem('current_wallet_address')).toBeNull();
    expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
  });

  test('disconnect clears every stored credential and reloads home', async () => {
    const wallet = new TestWallet();
    const { env, storage, reloads } = environment([wallet]);
    await run(env).dispatch(connectRequested()).put(signedIn(wallet.address)).silentRun(2500);
    storage.setItem('apiKey', 'kept');
    await run(env).dispatch(disconnectRequested()).silentRun(300);
    expect(reloads).toEqual(['/']);
    expect([...Array(storage.length).keys()].map((i) => storage.key(i))).toEqual(['apiKey']);
  });
});

describe('the once-a-second check', () => {
  const check = (
    env: WalletEnvironment,
    wallet: Partial<WalletState>,
    provider: TestWallet | null,
  ) =>
    expectSaga(checkSession, env, { provider, listener: null })
      .withReducer(reducer, state(wallet))
      .provide({ getContext: () => env });

  test('an expired token ends the session and asks for a new signature', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    const expired = `x.${Buffer.from(JSON.stringify({ exp: 1 })).toString('base64url')}.y`;
    storeSignIn(storage, { address, signature: '0x', token: expired });
    await check(env, { status: 'verified', address }, wallet)
      .put(sessionEnded())
      .put(connectRequested())
      .run();
    expect(storage.getItem(`signature_verified_${address}`)).toBeNull();
  });

  test('a session signed in by another tab is taken up', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    const valid = `x.${Buffer.from(JSON.stringify({ exp: Date.now() / 1000 + 3600 })).toString('base64url')}.y`;
    storeSignIn(storage, { address, signature: '0x', token: valid });
    await check(env, {}, null).put(sessionRestored(address)).run();
  });

  test('a wallet now showing another account than the stored one resets to that account', async () => {
    const wallet = new TestWallet(2);
    const { env, storage } = environment([wallet]);
    await wallet.request({ method: 'eth_requestAccounts' });
    const stored = wallet.accounts[1]!.address.toLowerCase();
    const valid = `x.${Buffer.from(JSON.stringify({ exp: Date.now() / 1000 + 3600 })).toString('base64url')}.y`;
    storeSignIn(storage, { address: stored, signature: '0x', token: valid });
    await check(env, { status: 'verified', address: stored }, wallet)
      .put(sessionEnded())
      .put(connectRequested())
      .run();
  });
});

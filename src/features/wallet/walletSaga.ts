/**
 * The wallet session (SPEC.md section 4): restored from this browser at start, re-checked every
 * second and on account changes, signed in on request, cleared on disconnect. The sign-in
 * itself (and ethers) is loaded only when needed.
 */
import { eventChannel, type EventChannel, type Task } from 'redux-saga';
import {
  call,
  cancel,
  delay,
  fork,
  put,
  select,
  spawn,
  take,
  takeEvery,
  takeLeading,
} from 'typed-redux-saga';
import { fromContext } from '../../shared/sagaContext';
import type { Eip1193Provider } from './eip1193';
import type { WalletEnvironment } from './environment';
import {
  clearAllWalletCredentials,
  clearAuthState,
  hasVerifiedSession,
  readWalletSession,
  storageKeys,
} from './session';
import {
  connectRequested,
  disconnectRequested,
  selectIsWalletBusy,
  selectWalletAddress,
  sessionEnded,
  sessionRestored,
  signInFailed,
  type WalletState,
} from './walletSlice';

/** SPEC.md section 9: the wallet status is re-checked every second. */
export const SESSION_CHECK_MS = 1000;

/** The wallet the session runs on; a provider object, so it lives here and not in the store. */
interface ActiveWallet {
  provider: Eip1193Provider | null;
  listener: Task | null;
}

const selectWallet = (state: { wallet: WalletState }) => state.wallet;

export function* walletSaga() {
  const env = yield* fromContext('walletEnvironment');
  if (!env) return; // a store made without a browser (most tests)
  const active: ActiveWallet = { provider: null, listener: null };

  const stored = readWalletSession(env.storage, env.now());
  if (stored) {
    yield* put(sessionRestored(stored.address));
    yield* fork(findWalletOf, env, active, stored.address);
  }
  yield* takeLeading(connectRequested.type, connect, active);
  yield* takeEvery(disconnectRequested.type, disconnect, env);
  yield* fork(checkEverySecond, env, active);
}

function* connect(active: ActiveWallet) {
  const { signIn } = yield* call(() => import(/* webpackChunkName: "wallet" */ './signIn'));
  const provider = yield* signIn(active.provider);
  if (provider) yield* call(attachWallet, active, provider);
}

function* disconnect(env: WalletEnvironment) {
  clearAllWalletCredentials(env.storage);
  yield* call(env.reloadHome);
}

/**
 * After a reload: which injected wallet holds the restored account (asking does not prompt).
 * A wallet now on another account is followed too, and that account handled as a change
 * (SPEC.md section 4: a stored address that differs from the wallet's resets the auth state).
 */
function* findWalletOf(env: WalletEnvironment, active: ActiveWallet, address: string) {
  let otherAccount: { provider: Eip1193Provider; accounts: string[] } | null = null;
  try {
    for (const { provider } of yield* call(env.discoverWallets)) {
      const accounts = (yield* call([provider, provider.request], {
        method: 'eth_accounts',
      })) as string[];
      if (accounts.some((account) => account.toLowerCase() === address)) {
        yield* call(attachWallet, active, provider);
        return;
      }
      if (accounts.length > 0) otherAccount ??= { provider, accounts };
    }
  } catch {
    // No wallet to watch: the stored session still holds until it expires or is cleared.
    return;
  }
  if (otherAccount) {
    yield* call(attachWallet, active, otherAccount.provider);
    yield* call(accountsChanged, otherAccount.accounts);
  }
}

/** Follows the wallet's account changes from now on; detached, so the caller can finish. */
function* attachWallet(active: ActiveWallet, provider: Eip1193Provider) {
  if (active.listener) yield* cancel(active.listener);
  active.provider = provider;
  active.listener = yield* spawn(listenForAccounts, provider);
}

function accountsChannel(provider: Eip1193Provider): EventChannel<string[]> {
  return eventChannel((emit) => {
    const listener = (accounts: string[]) => emit(Array.isArray(accounts) ? accounts : []);
    provider.on?.('accountsChanged', listener);
    return () => provider.removeListener?.('accountsChanged', listener);
  });
}

function* listenForAccounts(provider: Eip1193Provider) {
  const channel = yield* call(accountsChannel, provider);
  try {
    while (true) {
      const accounts = yield* take(channel);
      yield* call(accountsChanged, accounts);
    }
  } finally {
    channel.close();
  }
}

/**
 * SPEC.md section 4: an account already verified here is adopted; another one is asked to sign;
 * no account at all clears the session.
 */
function* accountsChanged(accounts: string[]) {
  const env = yield* fromContext('walletEnvironment');
  if (yield* select(selectIsWalletBusy)) return;
  const current = yield* select(selectWalletAddress);
  const next = accounts[0]?.toLowerCase() ?? null;
  if (next === current) return;
  if (next === null) {
    if (current) clearAuthState(env.storage, current);
    env.storage.removeItem(storageKeys.currentAddress);
    yield* put(sessionEnded());
  } else if (hasVerifiedSession(env.storage, next, env.now())) {
    env.storage.setItem(storageKeys.currentAddress, next);
    yield* put(sessionRestored(next));
  } else {
    // SPEC.md section 4: a stored address that is not the wallet's is no longer current
    // (its proof stays, so switching back needs no new signature).
    env.storage.removeItem(storageKeys.currentAddress);
    yield* put(sessionEnded());
    yield* put(connectRequested());
  }
}

function* checkEverySecond(env: WalletEnvironment, active: ActiveWallet) {
  while (true) {
    yield* delay(SESSION_CHECK_MS);
    try {
      yield* call(checkSession, env, active);
    } catch (error) {
      console.error('Wallet check failed', error);
      yield* put(signInFailed('checkFailed'));
    }
  }
}

/** The once-a-second check: storage (another tab, expiry) and the wallet's own account. */
export function* checkSession(env: WalletEnvironment, active: ActiveWallet) {
  const wallet = yield* select(selectWallet);
  if (
    wallet.status === 'connecting' ||
    wallet.status === 'choosing' ||
    wallet.status === 'signing'
  ) {
    return;
  }
  const stored = readWalletSession(env.storage, env.now());
  if (wallet.status === 'verified' && wallet.address) {
    if (!stored) {
      // Cleared elsewhere, or the 24-hour token ran out: an expired session asks for a new
      // signature now rather than failing later on a write.
      const expired = env.storage.getItem(storageKeys.verified(wallet.address)) === 'true';
      clearAuthState(env.storage, wallet.address);
      yield* put(sessionEnded());
      if (expired && active.provider) yield* put(connectRequested());
      return;
    }
    if (stored.address !== wallet.address) {
      yield* put(sessionRestored(stored.address));
      return;
    }
    if (active.provider) {
      const accounts = (yield* call([active.provider, active.provider.request], {
        method: 'eth_accounts',
      })) as string[];
      yield* call(accountsChanged, accounts);
    }
  } else if (stored) {
    yield* put(sessionRestored(stored.address));
  }
}

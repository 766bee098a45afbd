/**
 * The wallet session (SPEC.md section 4): restored from this browser at start, re-checked every
 * second and on account changes, signed in on request, cleared on disconnect. One worker per
 * flow: `connect`, `disconnect`, `restoreSession`, `followAccountChange` and `checkSession`.
 * Each takes what starts it and returns when its flow ends, so a test runs one with expectSaga
 * and no timeout; the watchers that run them, and the listener that follows the wallet's
 * account changes, live in `walletSaga`. Each worker is exported under the failure policy
 * (src/shared/failurePolicy.ts): a throw is told by the flow's failure event, logged, and the
 * watchers go on. Time is the context's clock. The sign-in itself (and the signature recovery)
 * is loaded only when needed.
 */
import { eventChannel, type EventChannel, type Task } from 'redux-saga';
import {
  call,
  cancel,
  fork,
  put,
  select,
  spawn,
  take,
  takeEvery,
  takeLeading,
} from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { policed, unexpected } from '../../shared/failurePolicy';
import { wait } from '../../shared/waits';
import type { Eip1193Provider } from './eip1193';
import {
  clearAllWalletCredentials,
  clearAuthState,
  readWalletSession,
  storageKeys,
  storedSessionFor,
} from './session';
import { signInFailedWith } from './signInFailure';
import {
  accountChangeFailed,
  connectRequested,
  disconnectFailed,
  disconnectRequested,
  selectIsWalletBusy,
  selectWalletAddress,
  sessionCheckFailed,
  sessionEnded,
  sessionRestoreFailed,
  sessionRestored,
  type WalletState,
} from './walletSlice';

/** SPEC.md section 9: the wallet status is re-checked every second. */
export const SESSION_CHECK_MS = 1000;

/**
 * The wallet the session runs on; a provider object, so it lives here and not in the store.
 * The workers share it: a sign-in asks this wallet first, the check reads its account.
 */
export interface ActiveWallet {
  provider: Eip1193Provider | null;
}

const noWallet = (): ActiveWallet => ({ provider: null });

const selectWallet = (state: { wallet: WalletState }) => state.wallet;

export function* walletSaga() {
  const env = yield* fromContext('walletEnvironment');
  if (!env) return; // a store made without a browser (most tests)
  const active = noWallet();
  let listener: Task | null = null;

  /** Follows the wallet's account changes from now on; detached, so a worker can finish. */
  function* follow(provider: Eip1193Provider | null | undefined) {
    if (!provider) return;
    if (listener) yield* cancel(listener);
    listener = yield* spawn(listenForAccounts, provider);
  }

  yield* fork(function* restoreAndFollow() {
    yield* follow(yield* restoreSession(active));
  });
  yield* takeLeading(connectRequested, function* connectAndFollow(action) {
    yield* follow(yield* connect(action, active));
  });
  yield* takeEvery(disconnectRequested, disconnect);
  yield* fork(checkEverySecond, active);
}

/**
 * Connect → sign → verified: the player pressed Connect Wallet (or an account change needs a
 * new signature). Returns the wallet that signed, now the active one, or null (undefined when
 * the sign-in failed: signInFailed says why, and Connect Wallet tries again).
 */
export const connect = policed(function* connect(
  _requested: ReturnType<typeof connectRequested>,
  active: ActiveWallet = noWallet(),
) {
  const { signIn } = yield* call(() => import(/* webpackChunkName: "wallet" */ './signIn'));
  const provider = yield* signIn(active.provider);
  if (provider) active.provider = provider;
  return provider;
}, signInFailedWith);

/**
 * Disconnect (SPEC.md section 4): every stored credential goes, and the home page reloads. If
 * that breaks, the player is told, and Disconnect tries again.
 */
export const disconnect = policed(
  function* disconnect(_requested: ReturnType<typeof disconnectRequested>) {
    const env = yield* fromContext('walletEnvironment');
    clearAllWalletCredentials(env.storage);
    yield* call(env.reloadHome);
  },
  () => unexpected(disconnectFailed()),
);

/**
 * At start: a session verified earlier in this browser is taken up, and the injected wallet
 * holding its account found (asking does not prompt). A wallet now on another account is
 * followed too, and that account handled as a change (SPEC.md section 4: a stored address that
 * differs from the wallet's resets the auth state). Returns the wallet found, now the active
 * one, or null (undefined when the session could not be read: the player is told, and signs in
 * again with Connect Wallet).
 */
export const restoreSession = policed(
  function* restoreSession(active: ActiveWallet = noWallet()) {
    const env = yield* fromContext('walletEnvironment');
    const clock = yield* fromContext('clock');
    const stored = readWalletSession(env.storage, clock.now());
    if (!stored) return null;
    yield* put(sessionRestored(stored));
    let otherAccount: { provider: Eip1193Provider; accounts: string[] } | null = null;
    try {
      for (const { provider } of yield* call(env.discoverWallets)) {
        const accounts = (yield* call([provider, provider.request], {
          method: 'eth_accounts',
        })) as string[];
        if (accounts.some((account) => account.toLowerCase() === stored.address)) {
          active.provider = provider;
          return provider;
        }
        if (accounts.length > 0) otherAccount ??= { provider, accounts };
      }
    } catch {
      // No wallet to watch: the stored session still holds until it expires or is cleared.
      return null;
    }
    if (!otherAccount) return null;
    // Active before the change is handled: a sign-in it asks for goes to this wallet.
    active.provider = otherAccount.provider;
    yield* call(followAccountChange, otherAccount.accounts);
    return otherAccount.provider;
  },
  () => unexpected(sessionRestoreFailed()),
);

function accountsChannel(provider: Eip1193Provider): EventChannel<string[]> {
  return eventChannel((emit) => {
    const listener = (accounts: string[]) => emit(Array.isArray(accounts) ? accounts : []);
    provider.on?.('accountsChanged', listener);
    return () => provider.removeListener?.('accountsChanged', listener);
  });
}

/** The wallet's accountsChanged events, each handled in turn, until cancelled. */
export function* listenForAccounts(provider: Eip1193Provider) {
  const channel = yield* call(accountsChannel, provider);
  try {
    while (true) {
      const accounts = yield* take(channel);
      yield* call(followAccountChange, accounts);
    }
  } finally {
    channel.close();
  }
}

/**
 * The wallet announced its accounts (SPEC.md section 4): an account already verified here is
 * adopted; another one is asked to sign; no account at all clears the session. If following
 * breaks, the player is told, and the listener goes on to the next announcement.
 */
export const followAccountChange = policed(
  function* followAccountChange(accounts: string[]) {
    const env = yield* fromContext('walletEnvironment');
    const clock = yield* fromContext('clock');
    if (yield* select(selectIsWalletBusy)) return;
    const current = yield* select(selectWalletAddress);
    const next = accounts[0]?.toLowerCase() ?? null;
    if (next === current) return;
    const verified = next && storedSessionFor(env.storage, next, clock.now());
    if (next === null) {
      if (current) clearAuthState(env.storage, current);
      env.storage.removeItem(storageKeys.currentAddress);
      yield* put(sessionEnded());
    } else if (verified) {
      env.storage.setItem(storageKeys.currentAddress, next);
      yield* put(sessionRestored(verified));
    } else {
      // SPEC.md section 4: a stored address that is not the wallet's is no longer current
      // (its proof stays, so switching back needs no new signature).
      env.storage.removeItem(storageKeys.currentAddress);
      yield* put(sessionEnded());
      yield* put(connectRequested());
    }
  },
  () => unexpected(accountChangeFailed()),
);

/** The check, once a second, for as long as the wallet saga runs; each one under the policy. */
function* checkEverySecond(active: ActiveWallet) {
  while (true) {
    yield* call(wait, SESSION_CHECK_MS);
    yield* call(checkSession, active);
  }
}

/**
 * The once-a-second check: storage (another tab's sign-in or disconnect, the token's expiry) and
 * the wallet's own account. The storage is where tabs share the session; the slice follows it.
 * If the check breaks, the player is told, and the next one runs a second later.
 */
export const checkSession = policed(
  function* checkSession(active: ActiveWallet = noWallet()) {
    const env = yield* fromContext('walletEnvironment');
    const clock = yield* fromContext('clock');
    const wallet = yield* select(selectWallet);
    if (
      wallet.status === 'connecting' ||
      wallet.status === 'choosing' ||
      wallet.status === 'signing'
    ) {
      return;
    }
    const stored = readWalletSession(env.storage, clock.now());
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
      if (stored.token !== wallet.session?.token) {
        // Another tab signed in as another account, or as this one again (a fresh token).
        yield* put(sessionRestored(stored));
        return;
      }
      if (active.provider) {
        const accounts = (yield* call([active.provider, active.provider.request], {
          method: 'eth_accounts',
        })) as string[];
        yield* call(followAccountChange, accounts);
      }
    } else if (stored) {
      yield* put(sessionRestored(stored));
    }
  },
  () => unexpected(sessionCheckFailed()),
);

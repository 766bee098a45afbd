/**
 * The verified session as the clients read it at the moment they send (DESIGN.md, State and
 * side effects): the store fills the saga context's and RTK Query's `walletSession` with it, so
 * a saga or an endpoint that sends as the player's wallet asks the wallet, never the storage.
 */
import { call } from 'typed-redux-saga';
import { fromContext, type WalletSessionAccessor } from './sagaContext';
import type { VerifiedWalletSession } from './session';
import { selectWalletSession, type WalletState } from './walletSlice';

/** The accessor over a store's state (makeStore's saga context and thunk `extra`). */
export function walletSessionAccessor(
  getState: () => { wallet: WalletState },
): WalletSessionAccessor {
  return () => selectWalletSession(getState());
}

/** The session an RTK Query endpoint's `extra` gives, or null when its store gave none. */
export function walletSessionOf(extra: unknown): VerifiedWalletSession | null {
  const access = (extra as { walletSession?: WalletSessionAccessor } | undefined)?.walletSession;
  return access ? access() : null;
}

/** In a saga: the session now, from the saga context, or null. */
export function* currentWalletSession() {
  const access = yield* fromContext('walletSession');
  return access ? yield* call(access) : null;
}

import { useSyncExternalStore } from 'react';
import type { WalletSession } from '../../api';
import { readWalletSession } from './session';

/** SPEC.md section 9: the wallet status is re-checked every second. */
const RECHECK_MS = 1000;

let current: WalletSession | null = null;
const snapshot = () => {
  const next = readWalletSession(window.localStorage);
  // Same session, same object: React re-renders only when it really changed.
  if (next?.address !== current?.address || next?.token !== current?.token) current = next;
  return current;
};

function subscribe(onChange: () => void) {
  const timer = window.setInterval(onChange, RECHECK_MS);
  window.addEventListener('storage', onChange);
  return () => {
    window.clearInterval(timer);
    window.removeEventListener('storage', onChange);
  };
}

/** The verified wallet session, followed as it changes (another tab, sign-in, expiry). */
export function useWalletSession(): WalletSession | null {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}

import type { WalletSession } from '../../api';

/** SPEC.md section 3, local browser storage keys of the wallet session. */
export const storageKeys = {
  currentAddress: 'current_wallet_address',
  verified: (address: string) => `signature_verified_${address}`,
  signature: (address: string) => `signature_${address}`,
  authToken: (address: string) => `auth_token_${address}`,
  username: (address: string) => `username_${address}`,
} as const;

/** The expiry (seconds since the epoch) a token states, or null when it is not a JWT. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

/**
 * The verified wallet session kept in the browser, or null (SPEC.md section 4, Wallet
 * session): verified means the stored flag is 'true' and an unexpired token exists for the
 * current address.
 */
export function readWalletSession(storage: Storage, now = Date.now()): WalletSession | null {
  const address = storage.getItem(storageKeys.currentAddress)?.toLowerCase();
  if (!address) return null;
  if (storage.getItem(storageKeys.verified(address)) !== 'true') return null;
  const token = storage.getItem(storageKeys.authToken(address));
  if (!token) return null;
  const expiry = tokenExpiry(token);
  if (expiry === null || expiry * 1000 <= now) return null;
  return { address, token };
}

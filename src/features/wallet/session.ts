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

export interface SignInRecord {
  address: string;
  signature: string;
  token: string;
}

/** Keeps a completed sign-in under SPEC.md's keys; the address becomes the current one. */
export function storeSignIn(storage: Storage, { address, signature, token }: SignInRecord): void {
  const wallet = address.toLowerCase();
  storage.setItem(storageKeys.currentAddress, wallet);
  storage.setItem(storageKeys.verified(wallet), 'true');
  storage.setItem(storageKeys.signature(wallet), signature);
  storage.setItem(storageKeys.authToken(wallet), token);
}

/** Forgets an address's proof of ownership (a failed signing, an expired token). */
export function clearAuthState(storage: Storage, address: string): void {
  const wallet = address.toLowerCase();
  storage.removeItem(storageKeys.verified(wallet));
  storage.removeItem(storageKeys.signature(wallet));
  storage.removeItem(storageKeys.authToken(wallet));
}

/** Disconnect: every wallet credential this browser holds, and the current address. */
export function clearAllWalletCredentials(storage: Storage): void {
  const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '');
  for (const key of keys) {
    if (/^(signature_verified_|signature_|auth_token_)0x/.test(key)) storage.removeItem(key);
  }
  storage.removeItem(storageKeys.currentAddress);
}

/** Whether this browser holds a valid session for the address (switching back needs no signature). */
export function hasVerifiedSession(storage: Storage, address: string, now = Date.now()): boolean {
  const wallet = address.toLowerCase();
  if (storage.getItem(storageKeys.verified(wallet)) !== 'true') return false;
  const token = storage.getItem(storageKeys.authToken(wallet));
  const expiry = token ? tokenExpiry(token) : null;
  return expiry !== null && expiry * 1000 > now;
}

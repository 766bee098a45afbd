/**
 * Where this browser keeps the wallet session (SPEC.md section 3, local browser storage keys):
 * read and written by the wallet feature alone. The rest of the app asks the wallet slice
 * (`selectWalletSession`) or the saga context's `walletSession`, never the storage.
 */
import type { WalletSession } from '../../api';
import { tokenExpiry } from './tokenClaims';

/** SPEC.md section 3, local browser storage keys of the wallet session. */
export const storageKeys = {
  currentAddress: 'current_wallet_address',
  verified: (address: string) => `signature_verified_${address}`,
  signature: (address: string) => `signature_${address}`,
  authToken: (address: string) => `auth_token_${address}`,
} as const;

/** A verified wallet's credentials and when the server's token runs out. */
export interface VerifiedWalletSession extends WalletSession {
  /** The token's `exp`, in milliseconds since the epoch (DESIGN.md, Sign-in: 24 hours). */
  expiresAt: number;
}

/**
 * The session this browser holds for an address, or null (SPEC.md section 4, Wallet session):
 * verified means the stored flag is 'true' and an unexpired token exists for it.
 */
export function storedSessionFor(
  storage: Storage,
  address: string,
  now: number,
): VerifiedWalletSession | null {
  const wallet = address.toLowerCase();
  if (storage.getItem(storageKeys.verified(wallet)) !== 'true') return null;
  const token = storage.getItem(storageKeys.authToken(wallet));
  if (!token) return null;
  const expiry = tokenExpiry(token);
  if (expiry === null || expiry * 1000 <= now) return null;
  return { address: wallet, token, expiresAt: expiry * 1000 };
}

/** The verified session of the current address kept in this browser, or null. */
export function readWalletSession(storage: Storage, now: number): VerifiedWalletSession | null {
  const address = storage.getItem(storageKeys.currentAddress);
  return address ? storedSessionFor(storage, address, now) : null;
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

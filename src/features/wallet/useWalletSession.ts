import { useAppSelector } from '../../shared/hooks';
import type { VerifiedWalletSession } from './session';
import { selectWalletSession } from './walletSlice';

/** The verified wallet's session (address, token, expiry) for a view, or null. */
export function useWalletSession(): VerifiedWalletSession | null {
  return useAppSelector(selectWalletSession);
}

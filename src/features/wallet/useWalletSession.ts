import { useSelector } from 'react-redux';
import type { VerifiedWalletSession } from './session';
import { selectWalletSession, type WalletState } from './walletSlice';

/** The verified wallet's session (address, token, expiry) for a view, or null. */
export function useWalletSession(): VerifiedWalletSession | null {
  return useSelector((state: { wallet: WalletState }) => selectWalletSession(state));
}

import { useMemo } from 'react';
import { useSelector } from 'react-redux';
import type { WalletSession } from '../../api';
import { readWalletSession } from './session';
import { selectWalletAddress, type WalletState } from './walletSlice';

/**
 * The verified wallet's address and token: the address from the wallet slice (kept in step with
 * this browser's storage by the wallet saga), the token from storage, where it lives.
 */
export function useWalletSession(): WalletSession | null {
  const address = useSelector((state: { wallet: WalletState }) => selectWalletAddress(state));
  return useMemo(() => {
    if (!address) return null;
    const session = readWalletSession(window.localStorage);
    return session?.address === address ? session : null;
  }, [address]);
}

export {
  readWalletSession,
  storageKeys,
  tokenExpiry,
  storeSignIn,
  clearAuthState,
  hasVerifiedSession,
} from './session';
export { useWalletSession } from './useWalletSession';
export { browserWalletEnvironment, type WalletEnvironment } from './environment';
export type { DiscoveredWallet, Eip1193Provider } from './eip1193';
export { walletSaga } from './walletSaga';
export {
  walletSlice,
  connectRequested,
  disconnectRequested,
  selectWalletAddress,
  selectWalletStatus,
  selectIsWalletBusy,
  type WalletState,
} from './walletSlice';
export { WalletControl } from './WalletControl';

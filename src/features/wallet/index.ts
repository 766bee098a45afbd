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
export type { WalletContext } from './sagaContext';
export type { DiscoveredWallet, Eip1193Provider } from './eip1193';
// The wallet's flows: the root saga and one worker per flow, for tests and tools.
export {
  SESSION_CHECK_MS,
  checkSession,
  connect,
  disconnect,
  followAccountChange,
  listenForAccounts,
  restoreSession,
  walletSaga,
  type ActiveWallet,
} from './walletSaga';
export {
  walletSlice,
  initialWalletState,
  connectRequested,
  connectCancelled,
  disconnectRequested,
  sessionEnded,
  sessionRestored,
  signInFailed,
  signatureRequested,
  signedIn,
  walletChoiceOffered,
  walletChosen,
  selectWalletAddress,
  selectWalletStatus,
  selectIsWalletBusy,
  type WalletErrorCode,
  type WalletState,
} from './walletSlice';
export { WalletControl } from './WalletControl';

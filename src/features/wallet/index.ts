// The session: by selector (views, endpoints) and by the saga context's accessor (flows and
// clients that send as the wallet). Its storage is the wallet's own: no key is exported.
export type { VerifiedWalletSession } from './session';
export { currentWalletSession, walletSessionAccessor, walletSessionOf } from './sessionAccess';
export { useWalletSession } from './useWalletSession';
export { browserWalletEnvironment, type WalletEnvironment } from './environment';
export type { WalletContext, WalletSessionAccessor } from './sagaContext';
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
  accountChangeFailed,
  connectRequested,
  connectCancelled,
  disconnectFailed,
  disconnectRequested,
  sessionCheckFailed,
  sessionEnded,
  sessionRestoreFailed,
  sessionRestored,
  signInFailed,
  signatureRequested,
  signedIn,
  walletChoiceOffered,
  walletChosen,
  selectWalletAccount,
  selectWalletAddress,
  selectWalletSession,
  selectWalletStatus,
  selectIsWalletBusy,
  type WalletErrorCode,
  type WalletState,
} from './walletSlice';
export { WalletControl } from './WalletControl';

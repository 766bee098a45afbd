export { readWalletSession, storageKeys, tokenExpiry } from './session';
export { useWalletSession } from './useWalletSession';

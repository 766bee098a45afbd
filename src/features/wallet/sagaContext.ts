/**
 * The wallet's part of the saga context (DESIGN.md, where side effects live), and the reader its
 * flows use: the wallet extension, the page's site and its storage, with the backend's part
 * that a sign-in is exchanged with.
 */
import type { BackendContext } from '../../api';
import { contextReader, type ClockContext } from '../../shared/sagaContext';
import type { WalletEnvironment } from './environment';
import type { VerifiedWalletSession } from './session';

/** The session now, or null: verified, with its token and expiry. */
export type WalletSessionAccessor = () => VerifiedWalletSession | null;

export interface WalletContext extends ClockContext {
  /** The wallet extension, the page's site and its storage. */
  walletEnvironment: WalletEnvironment;
  /** The verified wallet session when asked (the store fills it from the wallet slice). */
  walletSession: WalletSessionAccessor;
}

/** One value of the context the wallet's flows read, typed by its key. */
export const fromContext = contextReader<WalletContext & BackendContext>();

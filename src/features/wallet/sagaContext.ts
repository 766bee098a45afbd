/**
 * The wallet's part of the saga context (DESIGN.md, where side effects live), and the reader its
 * flows use: the wallet extension, the page's site and its storage, with the backend's part
 * that a sign-in is exchanged with.
 */
import type { BackendContext } from '../../api';
import { contextReader, type ClockContext } from '../../shared/sagaContext';
import type { WalletEnvironment } from './environment';

export interface WalletContext extends ClockContext {
  /** The wallet extension, the page's site and its storage. */
  walletEnvironment: WalletEnvironment;
}

/** One value of the context the wallet's flows read, typed by its key. */
export const fromContext = contextReader<WalletContext & BackendContext>();

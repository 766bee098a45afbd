import { discoverWallets, type DiscoveredWallet } from './eip1193';

/**
 * What the wallet sagas need from the browser, in saga context (never in the store), so tests
 * hand in a test wallet, a storage and a site of their own. The time is the context's clock,
 * as every flow's is.
 */
export interface WalletEnvironment {
  discoverWallets(): Promise<DiscoveredWallet[]>;
  storage: Storage;
  /** The page's host and origin: the sign-in message names them, the server checks them. */
  site: { host: string; origin: string };
  /** Disconnect ends with a fresh load of the home page (SPEC.md section 4). */
  reloadHome(): void;
}

export function browserWalletEnvironment(win: Window): WalletEnvironment {
  return {
    discoverWallets: () => discoverWallets(win),
    storage: win.localStorage,
    site: { host: win.location.host, origin: win.location.origin },
    reloadHome: () => win.location.assign('/'),
  };
}

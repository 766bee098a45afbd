import type { WalletInfo } from './walletSlice';

/** An injected wallet's EIP-1193 provider: the only part of it the game uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: 'accountsChanged', listener: (accounts: string[]) => void): void;
  removeListener?(event: 'accountsChanged', listener: (accounts: string[]) => void): void;
}

export interface DiscoveredWallet {
  info: WalletInfo;
  provider: Eip1193Provider;
}

interface AnnounceEvent extends Event {
  detail?: {
    info?: { uuid?: string; name?: string; icon?: string; rdns?: string };
    provider?: Eip1193Provider;
  };
}

/** How long wallets get to announce themselves (EIP-6963); they answer synchronously. */
export const DISCOVERY_WAIT_MS = 200;

/**
 * The wallets injected into the page: those announcing themselves through EIP-6963, or else
 * the legacy window.ethereum. Asking does not prompt the player.
 */
export function discoverWallets(
  win: Window,
  waitMs = DISCOVERY_WAIT_MS,
): Promise<DiscoveredWallet[]> {
  const found = new Map<string, DiscoveredWallet>();
  const onAnnounce = (event: Event) => {
    const { info, provider } = (event as AnnounceEvent).detail ?? {};
    if (!info?.uuid || !provider || typeof provider.request !== 'function') return;
    found.set(info.uuid, {
      info: { id: info.uuid, name: info.name ?? info.rdns ?? 'Wallet', icon: info.icon ?? '' },
      provider,
    });
  };
  win.addEventListener('eip6963:announceProvider', onAnnounce);
  win.dispatchEvent(new Event('eip6963:requestProvider'));
  return new Promise((resolve) => {
    win.setTimeout(() => {
      win.removeEventListener('eip6963:announceProvider', onAnnounce);
      const legacy = (win as Window & { ethereum?: Eip1193Provider }).ethereum;
      if (found.size === 0 && legacy && typeof legacy.request === 'function') {
        found.set('injected', {
          info: { id: 'injected', name: 'Browser wallet', icon: '' },
          provider: legacy,
        });
      }
      resolve([...found.values()]);
    }, waitMs);
  });
}

/** The wallet library's and the network client's codes, as the player should hear them. */
export function walletErrorCode(error: unknown): 'rejected' | 'timeout' | 'network' | 'authFailed' {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 4001 || code === 'ACTION_REJECTED') return 'rejected';
  if (code === 'TIMEOUT' || code === 'ETIMEDOUT' || code === 'ECONNABORTED') return 'timeout';
  if (code === 'NETWORK_ERROR' || code === 'ERR_NETWORK') return 'network';
  if (error instanceof TypeError && /fetch|network/i.test(String(message))) return 'network';
  return 'authFailed';
}

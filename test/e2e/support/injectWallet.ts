import type { BrowserContext, Page } from 'playwright-core';
import type { TestWallet } from '../../fixtures/testWallet';
import type { Eip1193Provider } from '../../../src/features/wallet';

interface BridgeReply {
  result?: unknown;
  error?: { code?: unknown; message: string };
}

/**
 * Puts the test wallet into every page of the context before the app loads: an EIP-1193
 * provider announced through EIP-6963 and set as window.ethereum, whose requests are answered
 * in the test process by a TestWallet (real ethers keys, real signatures) or any other wallet of
 * the tests (a SmartAccountWallet, test/fixtures/chain).
 */
export async function injectTestWallet(
  context: BrowserContext,
  wallet: Eip1193Provider,
  name = 'Test Wallet',
): Promise<void> {
  await context.exposeBinding(
    '__testWalletRequest',
    async (_source, method: string, params: unknown[]): Promise<BridgeReply> => {
      try {
        return { result: await wallet.request({ method, params }) };
      } catch (error) {
        const { code, message } = error as { code?: unknown; message?: string };
        return { error: { code, message: message ?? String(error) } };
      }
    },
  );
  await context.addInitScript((walletName: string) => {
    type Listener = (accounts: string[]) => void;
    const listeners = new Set<Listener>();
    const bridge = (
      window as unknown as {
        __testWalletRequest(method: string, params: unknown[]): Promise<BridgeReply>;
      }
    ).__testWalletRequest;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const reply = await bridge(method, params ?? []);
        if (reply.error)
          throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
        return reply.result;
      },
      on: (event: string, listener: Listener) => {
        if (event === 'accountsChanged') listeners.add(listener);
      },
      removeListener: (_event: string, listener: Listener) => listeners.delete(listener),
    };
    Object.assign(window, {
      ethereum: provider,
      __testWalletEmit: (accounts: string[]) => listeners.forEach((listener) => listener(accounts)),
    });
    const info = {
      uuid: 'taleweaver-test-wallet',
      name: walletName,
      icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/%3E',
      rdns: 'dev.taleweaver.testwallet',
    };
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
      );
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  }, name);
}

/** The player switches account in the wallet; the page hears accountsChanged. */
export async function switchAccount(page: Page, wallet: TestWallet, index: number): Promise<void> {
  wallet.switchTo(index);
  await page.evaluate(
    (accounts) => {
      (window as unknown as { __testWalletEmit(accounts: string[]): void }).__testWalletEmit(
        accounts,
      );
    },
    [wallet.address],
  );
}

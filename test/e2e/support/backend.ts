import type { BaseWallet } from 'ethers';
import type { BrowserContext } from 'playwright-core';
import { DEFAULT_PUBLISHABLE_KEY } from '../../../src/api/backend';
import { createBackend } from '../../../src/api/supabaseBackend';
import { signIn, type BackendTarget } from '../../server/support/testServer';

export const baseUrl = (): string => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: the e2e globalSetup did not run');
  return url;
};

/** supabase-js clients on the e2e server, as the app has them. */
export function e2eBackend(url = baseUrl()): BackendTarget {
  return {
    url,
    backend: createBackend({ url, publishableKey: DEFAULT_PUBLISHABLE_KEY }),
  };
}

/**
 * Signs a wallet in for real (the server checks the signature) and leaves its session in the
 * browser's storage under SPEC.md's keys, as the wallet feature does after signing.
 */
export async function signedInContext(
  context: BrowserContext,
  target: BackendTarget,
  wallet: BaseWallet,
): Promise<{ address: string; token: string }> {
  const token = await signIn(target, wallet);
  const address = wallet.address.toLowerCase();
  await context.addInitScript(
    ({ address: walletAddress, token: authToken }) => {
      window.localStorage.setItem('current_wallet_address', walletAddress);
      window.localStorage.setItem(`signature_verified_${walletAddress}`, 'true');
      window.localStorage.setItem(`auth_token_${walletAddress}`, authToken);
    },
    { address, token },
  );
  return { address, token };
}

/**
 * Players of the reliability specs: real wallets signed in to a running server, saving results
 * and reading back their own, through the REST API as the app does.
 */
import { Wallet } from 'ethers';
import { DEFAULT_PUBLISHABLE_KEY } from '../../../src/api';
import { createBackend } from '../../../src/api/supabaseBackend';
import { plausibleResult } from '../../server/support/results';
import { signIn } from '../../server/support/testServer';

export interface Player {
  wallet: string;
  token: string;
}

export async function signedInPlayer(url: string): Promise<Player> {
  const wallet = Wallet.createRandom();
  const backend = createBackend({ url, publishableKey: DEFAULT_PUBLISHABLE_KEY });
  return { wallet: wallet.address.toLowerCase(), token: await signIn({ url, backend }, wallet) };
}

/** Saves a plausible result under `character`; resolves with the HTTP status (201 saved). */
export async function saveResult(
  url: string,
  player: Player,
  character: string,
  signal?: AbortSignal,
): Promise<number> {
  const response = await fetch(`${url}/rest/v1/game_results`, {
    method: 'POST',
    headers: {
      apikey: DEFAULT_PUBLISHABLE_KEY,
      authorization: `Bearer ${player.token}`,
      'content-type': 'application/json',
      prefer: 'return=minimal',
    },
    body: JSON.stringify({ wallet_address: player.wallet, ...plausibleResult({ character }) }),
    signal,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The character names of every result the player has saved. */
export async function savedCharacters(url: string, player: Player): Promise<string[]> {
  const response = await fetch(`${url}/rest/v1/game_results?select=character_name`, {
    headers: { apikey: DEFAULT_PUBLISHABLE_KEY, authorization: `Bearer ${player.token}` },
  });
  if (response.status !== 200) throw new Error(`reading results answered ${response.status}`);
  return ((await response.json()) as { character_name: string }[]).map((row) => row.character_name);
}

import type { Backend, WalletSession } from '../../api';
import {
  LoginRefusedError,
  SignInRateLimitedError,
  SignatureRejectedError,
  SmartAccountChainError,
} from './signInFailure';

/**
 * The backend calls of signing in (SPEC.md section 7): the nonce before signing, the token in
 * exchange for the signed message, and the user row afterwards.
 */

/** A random stand-in nonce when the backend cannot give one (SPEC.md section 7); the server
 * will refuse the login, and the player is told that authentication failed. */
export function temporaryNonce(random: () => number = Math.random): string {
  return Array.from({ length: 16 }, () => Math.floor(random() * 36).toString(36)).join('');
}

export async function requestNonce(backend: Backend, address: string): Promise<string> {
  const { data, error, status } = await backend.anon.rpc('create_user_if_not_exists', {
    p_wallet_address: address.toLowerCase(),
  });
  if (status === 429) throw new SignInRateLimitedError();
  const nonce = (data as { nonce?: string }[] | null)?.[0]?.nonce;
  if (error || !nonce) return temporaryNonce();
  return nonce;
}

/**
 * POST /functions/v1/wallet-login: the server verifies the message (asking the chain for a smart
 * account's signature) and returns the token. `chainId` is the message's.
 */
export async function exchangeSignature(
  backend: Backend,
  { message, signature, chainId }: { message: string; signature: string; chainId: number },
): Promise<string> {
  const { data, error } = await backend.anon.functions.invoke<{ access_token?: string }>(
    'wallet-login',
    { body: { message, signature } },
  );
  const answer = (error as { context?: unknown } | null)?.context;
  if (answer instanceof Response) {
    if (answer.status === 429) throw new SignInRateLimitedError();
    const code = await refusalCode(answer);
    if (code === 'invalid_signature') throw new SignatureRejectedError();
    if (code === 'chain_not_configured') throw new SmartAccountChainError('unchecked', chainId);
    if (code === 'chain_unavailable') throw new SmartAccountChainError('unavailable', chainId);
  }
  if (error || !data?.access_token) throw new LoginRefusedError(error?.message ?? 'no token');
  return data.access_token;
}

/** The `code` of a refusal in PostgREST's error shape, or null. */
async function refusalCode(answer: Response): Promise<string | null> {
  try {
    const body = (await answer.clone().json()) as { code?: unknown } | null;
    return typeof body?.code === 'string' ? body.code : null;
  } catch {
    return null;
  }
}

/** After signing: the row exists (p_nonce null), through the signed-in client, with one retry
 * through the default client (SPEC.md section 7). */
export async function ensureUser(backend: Backend, session: WalletSession): Promise<void> {
  const args = { p_wallet_address: session.address, p_nonce: null };
  const first = await backend.forWallet(session).rpc('create_user_if_not_exists', args);
  if (!first.error) return;
  await backend.anon.rpc('create_user_if_not_exists', args);
}

import type { Backend, WalletSession } from '../../api';

/**
 * The backend calls of signing in (SPEC.md section 7): the nonce before signing, the token in
 * exchange for the signed message, and the user row afterwards.
 */

/** A random stand-in nonce when the backend cannot give one (SPEC.md section 7); the server
 * will refuse the login, and the player is told that authentication failed. */
export function temporaryNonce(random: () => number = Math.random): string {
  return Array.from({ length: 16 }, () => Math.floor(random() * 36).toString(36)).join('');
}

/**
 * The backend's sign-in limit (nonce requests and logins per address per minute) is spent: the
 * player is asked to wait rather than to sign a message the server would refuse.
 */
export class SignInRateLimitedError extends Error {
  constructor() {
    super('Too many sign-in requests from this address; the backend answered 429');
    this.name = 'SignInRateLimitedError';
  }
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

export class LoginRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`The server refused the sign-in: ${reason}`);
    this.name = 'LoginRefusedError';
  }
}

/** The server found that the signature is not the account's (a key's, or its contract's). */
export class SignatureRejectedError extends Error {
  constructor() {
    super('The server found the signature was not made by this account');
    this.name = 'SignatureRejectedError';
  }
}

/**
 * A smart account's signature the server could not judge: it has no endpoint for the chain
 * (`unchecked`), or the chain did not answer (`unavailable`, and the nonce is still good).
 */
export class SmartAccountChainError extends Error {
  constructor(
    readonly kind: 'unchecked' | 'unavailable',
    readonly chainId: number,
  ) {
    super(`The server could not check a smart account's signature on chain ${chainId}: ${kind}`);
    this.name = 'SmartAccountChainError';
  }
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

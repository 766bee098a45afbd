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

/** POST /functions/v1/wallet-login: the server verifies the message and returns the token. */
export async function exchangeSignature(
  backend: Backend,
  message: string,
  signature: string,
): Promise<string> {
  const { data, error } = await backend.anon.functions.invoke<{ access_token?: string }>(
    'wallet-login',
    { body: { message, signature } },
  );
  const answer = (error as { context?: unknown } | null)?.context;
  if (answer instanceof Response && answer.status === 429) throw new SignInRateLimitedError();
  if (error || !data?.access_token) throw new LoginRefusedError(error?.message ?? 'no token');
  return data.access_token;
}

/** After signing: the row exists (p_nonce null), through the signed-in client, with one retry
 * through the default client (SPEC.md section 7). */
export async function ensureUser(backend: Backend, session: WalletSession): Promise<void> {
  const args = { p_wallet_address: session.address, p_nonce: null };
  const first = await backend.forWallet(session).rpc('create_user_if_not_exists', args);
  if (!first.error) return;
  await backend.anon.rpc('create_user_if_not_exists', args);
}

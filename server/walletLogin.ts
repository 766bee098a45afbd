import type { FastifyInstance } from 'fastify';
import { SiweMessage } from 'siwe';
import type { TokenAuthority } from './auth';
import type { Database } from './db';
import { RestError } from './restError';

/** How long a nonce, and a signed message, stay usable (DESIGN.md, Sign-in). */
export const SIGN_IN_WINDOW_MS = 10 * 60 * 1000;
/** Clocks differ a little; an issued-at this far in the future is still accepted. */
const CLOCK_SKEW_MS = 60 * 1000;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const MAX_MESSAGE_LENGTH = 2048;

interface LoginBody {
  message?: unknown;
  signature?: unknown;
}

const refuse = (message: string) => new RestError(401, 'invalid_login', message);

/**
 * POST /functions/v1/wallet-login {message, signature}: the server half of Sign-In with
 * Ethereum. It checks the EIP-4361 message (signature, this site's domain and URI, times) and
 * the nonce the user was given, spends the nonce in the same transaction, and returns the token.
 */
export function registerWalletLogin(
  app: FastifyInstance,
  db: Database,
  tokens: TokenAuthority,
  siteOrigins: () => string[],
): void {
  app.post<{ Body: LoginBody }>('/functions/v1/wallet-login', async (request) => {
    const { message, signature } = request.body ?? {};
    if (typeof message !== 'string' || message.length > MAX_MESSAGE_LENGTH) {
      throw new RestError(400, 'invalid_request', 'message must be a Sign-In with Ethereum text');
    }
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
      throw new RestError(400, 'invalid_request', 'signature must be a 65-byte hex string');
    }

    let siwe: SiweMessage;
    try {
      siwe = new SiweMessage(message);
    } catch {
      throw new RestError(400, 'invalid_request', 'message is not a Sign-In with Ethereum text');
    }
    checkSite(siwe, siteOrigins());
    checkTimes(siwe, Date.now());

    const verified = await siwe.verify({ signature }, { suppressExceptions: true });
    if (!verified.success) {
      throw refuse(`Signature rejected: ${verified.error?.type ?? 'unknown reason'}`);
    }

    const walletAddress = siwe.address.toLowerCase();
    await spendNonce(db, walletAddress, siwe.nonce);
    const { token, expiresAt } = await tokens.issueWalletToken(walletAddress);
    request.log.info({ wallet: walletAddress }, 'wallet signed in');
    return {
      access_token: token,
      token_type: 'bearer',
      expires_at: expiresAt,
      wallet_address: walletAddress,
    };
  });
}

/** The message must be for this site: its domain (host) and its URI's origin. */
function checkSite(siwe: SiweMessage, origins: string[]): void {
  const hosts = origins.map((origin) => new URL(origin).host);
  if (!hosts.includes(siwe.domain)) refuseWith(`Message is for another domain: ${siwe.domain}`);
  let uriOrigin: string;
  try {
    uriOrigin = new URL(siwe.uri).origin;
  } catch {
    throw refuse(`Message URI is not a URL: ${siwe.uri}`);
  }
  if (!origins.includes(uriOrigin)) refuseWith(`Message is for another site: ${siwe.uri}`);
}

/** Issued recently, not from the future, and (when it says so) not yet expired. */
function checkTimes(siwe: SiweMessage, now: number): void {
  const issuedAt = Date.parse(siwe.issuedAt ?? '');
  if (Number.isNaN(issuedAt)) refuseWith('Message has no issued-at time');
  if (issuedAt > now + CLOCK_SKEW_MS) refuseWith('Message was issued in the future');
  if (now - issuedAt > SIGN_IN_WINDOW_MS) refuseWith('Message is too old; sign in again');
  if (siwe.expirationTime && Date.parse(siwe.expirationTime) <= now) {
    refuseWith('Message has expired; sign in again');
  }
}

function refuseWith(message: string): never {
  throw refuse(message);
}

/**
 * The nonce must be one this wallet was given (it may hold several: each nonce request adds
 * one), issued within the sign-in window; it is deleted as it is checked, so it works once.
 */
async function spendNonce(db: Database, walletAddress: string, nonce: string): Promise<void> {
  const { rowCount } = await db.pool.query(
    `delete from public.sign_in_nonces
      where nonce = $1 and wallet_address = $2
        and issued_at >= now() - make_interval(secs => $3::double precision / 1000)`,
    [nonce, walletAddress, SIGN_IN_WINDOW_MS],
  );
  if (rowCount !== 1) throw refuse('Nonce is unknown, used or expired; sign in again');
}

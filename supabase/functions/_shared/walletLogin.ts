/**
 * POST wallet-login {message, signature}: the server half of Sign-In with Ethereum (DESIGN.md,
 * "Sign-in"), as one Web-standard `(Request) => Promise<Response>`. The Edge Function serves it
 * under Deno (supabase/functions/wallet-login) and the local server mounts the same module.
 *
 * It checks the EIP-4361 message (this site's domain and URI, its times, the signature), spends
 * the nonce the wallet was given (single use, within the sign-in window) and returns a token.
 * Supabase's own Web3 sign-in is not used: it does not check the nonce (supabase/auth#2323).
 */
import { SiweMessage } from 'siwe';
import type { SignatureVerifier } from './walletSignature.ts';

/** How long a nonce, and a signed message, stay usable (DESIGN.md, Sign-in). */
export const SIGN_IN_WINDOW_MS = 10 * 60 * 1000;
/** Clocks differ a little; an issued-at this far in the future is still accepted. */
const CLOCK_SKEW_MS = 60 * 1000;
/**
 * A key's signature is 65 bytes; a smart account's is longer (a passkey's WebAuthn data, an
 * ERC-6492 wrapper with the account's deployment): up to 6 KB.
 */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){64,6144}$/;
const MAX_MESSAGE_LENGTH = 2048;
/** A message, a signature and their JSON; anything bigger is refused (413). */
export const MAX_LOGIN_BODY_BYTES = 16 * 1024;
/** How much of an oversize body is read (and dropped) before it is refused. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** What a browser may send across origins: supabase-js's headers. */
const ALLOWED_HEADERS = 'authorization, apikey, content-type, x-client-info';

/**
 * A login the sign-in limit refused: PostgREST's answer to public.admit_sign_in, passed on as it
 * is (429, its body, its Retry-After), so the player sees one shape whichever call was refused.
 */
export interface SignInRefusal {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

export interface WalletLoginDeps {
  /** The site's origins: sign-in messages must name one, and only they get CORS answers. */
  siteOrigins(): readonly string[];
  /**
   * Counts the login against its caller's sign-in limit, with the headers that name the caller
   * (callerHeaders); null when it may go on. The Edge Function calls public.admit_sign_in through
   * the REST API with the project's secret key; the local server calls it directly.
   */
  admitSignIn(callerHeaders: Record<string, string>): Promise<SignInRefusal | null>;
  /**
   * Deletes the wallet's nonce if it was issued within maxAgeSeconds; true when it did. The
   * Edge Function calls public.spend_sign_in_nonce through the REST API with the project's
   * secret key; the local server calls the same SQL function directly.
   */
  spendNonce(request: {
    walletAddress: string;
    nonce: string;
    maxAgeSeconds: number;
  }): Promise<boolean>;
  /**
   * Whose signature the message carries: a key's is checked at once; a smart account's is asked
   * of the message's chain (walletSignature.ts, built from CHAIN_RPC_URLS by each host).
   */
  verifySignature: SignatureVerifier;
  /** A token for a wallet whose sign-in has been verified. */
  issueToken(walletAddress: string): Promise<{ token: string; expiresAt: number }>;
  now?(): number;
  /** Where sign-ins and refusals are reported: the address or the reason, never a signature. */
  log?(level: 'info' | 'warn' | 'error', event: string, fields: Record<string, unknown>): void;
}

/** A refusal in PostgREST's error shape, which supabase-js reads. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new Refusal(400, 'invalid_request', message);
const refused = (message: string) => new Refusal(401, 'invalid_login', message);

export function walletLoginHandler(deps: WalletLoginDeps): (request: Request) => Promise<Response> {
  const now = deps.now ?? Date.now;
  return async (request) => {
    const cors = corsHeaders(request, deps.siteOrigins());
    // Another site's page may not sign in here, preflighted or not.
    if (cors === null) {
      return json(403, errorBody('origin_not_allowed', 'This origin may not sign in here'), {});
    }
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { ...cors, ...PREFLIGHT_HEADERS } });
    }
    try {
      if (request.method !== 'POST') {
        throw new Refusal(405, 'method_not_allowed', 'Sign in with POST');
      }
      // Every login counts, whatever it holds: a flood of nonsense is limited too.
      const refusal = await deps.admitSignIn(callerHeaders(request));
      if (refusal) {
        deps.log?.('warn', 'wallet sign-in refused', { reason: 'rate limited' });
        // Exposed, so that the page can say how long to wait.
        const retryAfter: Record<string, string> = refusal.retryAfter
          ? { 'Retry-After': refusal.retryAfter, 'Access-Control-Expose-Headers': 'Retry-After' }
          : {};
        return json(refusal.status, refusal.body, { ...cors, ...retryAfter });
      }
      // JSON only: a form or text/plain post is a request no browser preflights.
      const contentType = request.headers.get('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(contentType)) {
        throw new Refusal(415, 'unsupported_media_type', 'Send the sign-in as application/json');
      }
      const { message, signature } = await readLogin(request);
      const siwe = parseMessage(message);
      checkSite(siwe, deps.siteOrigins());
      checkTimes(siwe, now());
      // Before the nonce is spent: a chain that does not answer leaves it for another try.
      await checkSignature(deps, siwe, message, signature);
      const walletAddress = siwe.address.toLowerCase();
      const spent = await deps.spendNonce({
        walletAddress,
        nonce: siwe.nonce,
        maxAgeSeconds: SIGN_IN_WINDOW_MS / 1000,
      });
      if (!spent) throw refused('Nonce is unknown, used or expired; sign in again');
      const { token, expiresAt } = await deps.issueToken(walletAddress);
      deps.log?.('info', 'wallet signed in', { wallet: walletAddress });
      return json(
        200,
        {
          access_token: token,
          token_type: 'bearer',
          expires_at: expiresAt,
          wallet_address: walletAddress,
        },
        cors,
      );
    } catch (error) {
      if (error instanceof Refusal) {
        deps.log?.('warn', 'wallet sign-in refused', { reason: error.message });
        return json(error.status, errorBody(error.code, error.message), cors);
      }
      deps.log?.('error', 'wallet sign-in failed', { error: String(error) });
      return json(500, errorBody('server_error', 'Sign-in failed on the server; try again'), cors);
    }
  };
}

/** The signature is the account's, or the sign-in is refused with the reason. */
async function checkSignature(
  deps: WalletLoginDeps,
  siwe: SiweMessage,
  message: string,
  signature: string,
): Promise<void> {
  const verdict = await deps.verifySignature({
    address: siwe.address,
    message,
    signature,
    chainId: siwe.chainId,
  });
  switch (verdict.kind) {
    case 'valid':
      return;
    case 'invalid':
      throw new Refusal(401, 'invalid_signature', 'Signature rejected: not made by this account');
    case 'chainNotConfigured':
      deps.log?.('error', 'smart-account sign-in needs a chain endpoint', {
        chainId: verdict.chainId,
        setting: `CHAIN_RPC_URLS has no entry for chain ${verdict.chainId}`,
      });
      throw new Refusal(
        422,
        'chain_not_configured',
        `This account's signature must be checked on chain ${verdict.chainId}, ` +
          'which this server has no endpoint for',
      );
    case 'chainUnavailable':
      deps.log?.('error', 'chain endpoint did not answer', {
        chainId: verdict.chainId,
        reason: verdict.reason,
      });
      throw new Refusal(
        503,
        'chain_unavailable',
        `Chain ${verdict.chainId} could not be asked about this signature (its endpoint ` +
          `${verdict.reason}); the nonce is still good: try again shortly`,
      );
  }
}

/**
 * The headers that name the caller, as the gateway forwards them (what public.client_address_of
 * reads: cf-connecting-ip, else the last x-forwarded-for entry).
 */
export function callerHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['cf-connecting-ip', 'x-forwarded-for']) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': ALLOWED_HEADERS,
  'Access-Control-Max-Age': '86400',
};

/**
 * CORS for the site's own origins; none needed without an Origin (a server or a test calling);
 * null for any other origin, which is refused.
 */
function corsHeaders(request: Request, origins: readonly string[]): Record<string, string> | null {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  if (!origins.includes(origin)) return null;
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

function errorBody(code: string, message: string) {
  return { code, message, details: null, hint: null };
}

function json(status: number, body: unknown, cors: Record<string, string> | null): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...cors, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

/** The JSON body, of at most MAX_LOGIN_BODY_BYTES. */
async function readLogin(request: Request): Promise<{ message: string; signature: string }> {
  const bytes = await readAtMost(request, MAX_LOGIN_BODY_BYTES);
  let body: { message?: unknown; signature?: unknown } | null;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badRequest('The body must be JSON: {message, signature}');
  }
  const { message, signature } = body ?? {};
  if (typeof message !== 'string' || message.length > MAX_MESSAGE_LENGTH) {
    throw badRequest('message must be a Sign-In with Ethereum text');
  }
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
    throw badRequest('signature must be a hex string of 64 bytes to 6 KB');
  }
  return { message, signature };
}

const tooLarge = () =>
  new Refusal(413, 'request_too_large', `The body is over ${MAX_LOGIN_BODY_BYTES} bytes`);

/**
 * The body, kept up to `limit` bytes. Past it the rest is read and dropped, up to
 * DRAIN_LIMIT_BYTES, before the 413: a client still sending when the answer comes would see its
 * connection reset rather than the answer. Beyond that the stream is cancelled.
 */
async function readAtMost(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    if (length <= limit) chunks.push(value);
  }
  if (length > limit) throw tooLarge();
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function parseMessage(message: string): SiweMessage {
  try {
    return new SiweMessage(message);
  } catch {
    throw badRequest('message is not a Sign-In with Ethereum text');
  }
}

/** The message must be for this site: its domain (host) and its URI's origin. */
function checkSite(siwe: SiweMessage, origins: readonly string[]): void {
  const hosts = origins.map((origin) => new URL(origin).host);
  if (!hosts.includes(siwe.domain)) throw refused(`Message is for another domain: ${siwe.domain}`);
  let uriOrigin: string;
  try {
    uriOrigin = new URL(siwe.uri).origin;
  } catch {
    throw refused(`Message URI is not a URL: ${siwe.uri}`);
  }
  if (!origins.includes(uriOrigin)) throw refused(`Message is for another site: ${siwe.uri}`);
}

/** Issued recently, not from the future, and (when it says so) not yet expired. */
function checkTimes(siwe: SiweMessage, now: number): void {
  const issuedAt = Date.parse(siwe.issuedAt ?? '');
  if (Number.isNaN(issuedAt)) throw refused('Message has no issued-at time');
  if (issuedAt > now + CLOCK_SKEW_MS) throw refused('Message was issued in the future');
  if (now - issuedAt > SIGN_IN_WINDOW_MS) throw refused('Message is too old; sign in again');
  if (siwe.expirationTime && Date.parse(siwe.expirationTime) <= now) {
    throw refused('Message has expired; sign in again');
  }
}

/**
 * The sign-in token, as a Supabase project trusts it (DESIGN.md, "Sign-in"): ES256, signed with
 * the private half of a key the project has imported (`supabase gen signing-key --algorithm
 * ES256`), its `kid` in the header, and the claims PostgREST and row-level security read.
 *
 * Shared by the Edge Function (Deno) and the local server (Node): Web Crypto and jose only.
 */
import { type JWK, SignJWT, importJWK } from 'jose';

/** SPEC.md section 7: the token lives 86,400 seconds. */
export const TOKEN_LIFETIME_SECONDS = 86_400;
export const TOKEN_AUDIENCE = 'authenticated';
export const TOKEN_ALGORITHM = 'ES256';

/** RFC 4122's URL namespace: a wallet's user id is the UUIDv5 of its `ethereum:` URI (EIP-681). */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** An ES256 private key as a JWK, with the `kid` the project knows it by. */
export type SigningJwk = JWK & { kty: 'EC'; crv: 'P-256'; d: string; kid: string };

export interface WalletToken {
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface WalletTokenSigner {
  kid: string;
  issue(walletAddress: string, nowMs?: number): Promise<WalletToken>;
}

/**
 * The key from its JSON text: the object `supabase gen signing-key --algorithm ES256` prints,
 * or an array holding one such key (the form config.toml's signing_keys_path file takes).
 * Anything else is refused with a message naming what is wrong, never the key itself.
 */
export function parseSigningJwk(text: string, source = 'WALLET_LOGIN_SIGNING_JWK'): SigningJwk {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON: give the JWK that 'supabase gen signing-key' prints`);
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new Error(`${source} must hold exactly one key`);
    value = value[0];
  }
  const jwk = value as Partial<SigningJwk> | null;
  if (typeof jwk !== 'object' || jwk === null || jwk.kty !== 'EC' || jwk.crv !== 'P-256') {
    throw new Error(`${source} must be an ES256 key (kty EC, crv P-256)`);
  }
  if (jwk.alg !== undefined && jwk.alg !== TOKEN_ALGORITHM) {
    throw new Error(`${source} is for ${jwk.alg}, not ${TOKEN_ALGORITHM}`);
  }
  if (typeof jwk.d !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new Error(`${source} must be the private key (with d, x and y), not the public half`);
  }
  if (typeof jwk.kid !== 'string' || jwk.kid === '') {
    throw new Error(`${source} has no kid: the project finds its key by it`);
  }
  return jwk as SigningJwk;
}

/** The public half, as the project's JWKS publishes it: what verifies the tokens. */
export function publicJwk({ kty, crv, x, y, kid }: SigningJwk): JWK {
  return { kty, crv, x, y, kid, alg: TOKEN_ALGORITHM, use: 'sig', key_ops: ['verify'] };
}

/** The stable user id of a wallet: a UUIDv5, since Supabase's auth.uid() casts `sub` to uuid. */
export async function walletUserId(walletAddress: string): Promise<string> {
  const namespace = hexBytes(URL_NAMESPACE.replaceAll('-', ''));
  const name = new TextEncoder().encode(`ethereum:${walletAddress.toLowerCase()}`);
  const input = new Uint8Array(namespace.length + name.length);
  input.set(namespace);
  input.set(name, namespace.length);
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-1', input)).slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50; // version 5
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) =>
    Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16),
  );
}

/**
 * Issues tokens for wallets whose sign-in the caller has verified: `{alg: ES256, kid, typ: JWT}`
 * with role and aud `authenticated`, wallet_address (lowercase), sub (the wallet's UUIDv5), iat
 * and exp.
 */
export async function walletTokenSigner(jwk: SigningJwk): Promise<WalletTokenSigner> {
  const key = await importJWK({ ...jwk, key_ops: ['sign'] }, TOKEN_ALGORITHM);
  return {
    kid: jwk.kid,
    async issue(walletAddress, nowMs = Date.now()) {
      const address = walletAddress.toLowerCase();
      const issuedAt = Math.floor(nowMs / 1000);
      const expiresAt = issuedAt + TOKEN_LIFETIME_SECONDS;
      const token = await new SignJWT({ role: 'authenticated', wallet_address: address })
        .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: jwk.kid, typ: 'JWT' })
        .setSubject(await walletUserId(address))
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt };
    },
  };
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { RequestClaims } from './db';
import { RestError } from './restError';

/** SPEC.md section 7: the authentication token lives 86400 seconds. */
export const TOKEN_LIFETIME_SECONDS = 86_400;
const AUDIENCE = 'authenticated';

export interface WalletToken {
  token: string;
  expiresAt: number;
}

/**
 * Signs and checks the HS256 tokens that stand in for Supabase's. The secret exists only here:
 * from JWT_SECRET, or generated once into the data directory (readable by its owner only).
 */
export class TokenAuthority {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    /** The public key every request carries (like Supabase's anon key); it grants anon. */
    readonly anonKey: string,
  ) {
    if (secret.length < 32) throw new Error('The JWT secret must be at least 32 characters');
    this.key = new TextEncoder().encode(secret);
  }

  /** A token for a wallet whose signed sign-in message the server has verified. */
  async issueWalletToken(walletAddress: string, now = Date.now()): Promise<WalletToken> {
    const address = walletAddress.toLowerCase();
    const issuedAt = Math.floor(now / 1000);
    const expiresAt = issuedAt + TOKEN_LIFETIME_SECONDS;
    const token = await new SignJWT({ role: 'authenticated', wallet_address: address })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(address)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key);
    return { token, expiresAt };
  }

  /**
   * The claims a request runs with, as PostgREST decides them: the anon key (or no token) is
   * anon; anything else must be a valid, unexpired HS256 token for the 'authenticated'
   * audience, else the request is refused with 401.
   */
  async claimsFor(authorization: string | undefined): Promise<RequestClaims> {
    const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (!token || token === this.anonKey) return { role: 'anon' };
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
      });
      if (payload.role !== 'authenticated' && payload.role !== 'anon') {
        throw new RestError(401, 'PGRST301', `JWT role '${String(payload.role)}' is not allowed`);
      }
      return payload as RequestClaims;
    } catch (error) {
      if (error instanceof RestError) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        throw new RestError(401, 'PGRST303', 'JWT expired');
      }
      throw new RestError(401, 'PGRST301', 'JWT could not be verified');
    }
  }
}

/** JWT_SECRET when set; otherwise the secret kept in the data directory, made on first start. */
export function loadJwtSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = path.join(dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

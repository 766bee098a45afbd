/**
 * Who a request is, as Supabase's gateway and PostgREST decide it (DESIGN.md, "Sign-in"): the
 * apikey header names the project's publishable key (anon) or its secret key (service_role);
 * Authorization, when present, carries a user's token and nothing else. Tokens are ES256, signed
 * by the key the wallet-login function holds; an HS256 JWT_SECRET is accepted only when set.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type JWTHeaderParameters, errors as joseErrors, importJWK, jwtVerify } from 'jose';
import { projectSecretKey } from '../supabase/functions/_shared/supabaseProject';
import {
  type SigningJwk,
  TOKEN_ALGORITHM,
  TOKEN_AUDIENCE,
  type WalletToken,
  type WalletTokenSigner,
  parseSigningJwk,
  publicJwk,
  walletTokenSigner,
} from '../supabase/functions/_shared/walletToken';
import type { RequestClaims } from './db';
import { makePrivateDataDir } from './privateDataDir';
import { RestError } from './restError';

export interface ServerKeys {
  /** The public key every browser request names (Supabase's publishable key); grants anon. */
  publishableKey: string;
  /** The server-side key (Supabase's secret key); grants service_role. Never in the browser. */
  secretKey: string;
  /** The wallet-login function's private key; the server verifies with its public half. */
  signingJwk: SigningJwk;
  /** An older project's HS256 JWT secret, honoured only when JWT_SECRET is set. */
  legacyJwtSecret?: string;
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

export class TokenAuthority {
  private constructor(
    readonly keys: ServerKeys,
    private readonly signer: WalletTokenSigner,
    private readonly verifyKey: CryptoKey | Uint8Array,
    private readonly legacyKey: Uint8Array | null,
  ) {}

  static async create(keys: ServerKeys): Promise<TokenAuthority> {
    if (keys.legacyJwtSecret !== undefined && keys.legacyJwtSecret.length < 32) {
      throw new Error('JWT_SECRET must be at least 32 characters');
    }
    const legacy = keys.legacyJwtSecret ? new TextEncoder().encode(keys.legacyJwtSecret) : null;
    const verifyKey = await importJWK(publicJwk(keys.signingJwk), TOKEN_ALGORITHM);
    return new TokenAuthority(keys, await walletTokenSigner(keys.signingJwk), verifyKey, legacy);
  }

  get publishableKey(): string {
    return this.keys.publishableKey;
  }

  /** Whether apikey names this project at all (either key). */
  knowsApiKey(apikey: string | string[] | undefined): boolean {
    return apikey === this.keys.publishableKey || this.isSecretKey(apikey);
  }

  /** Compared in constant time: the secret key is the one a stranger would guess at. */
  private isSecretKey(apikey: string | string[] | undefined): boolean {
    if (typeof apikey !== 'string') return false;
    const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
    return crypto.timingSafeEqual(digest(apikey), digest(this.keys.secretKey));
  }

  /** A token for a wallet whose signed sign-in message has been verified. */
  issueWalletToken(walletAddress: string, now = Date.now()): Promise<WalletToken> {
    return this.signer.issue(walletAddress, now);
  }

  /**
   * The claims a request runs with. No user token: anon, or service_role for the secret key.
   * Otherwise Authorization must be `Bearer <JWT>` (any other key there is refused: keys are not
   * JWTs), valid and unexpired, for the 'authenticated' audience; else 401.
   */
  async claimsFor(
    apikey: string | string[] | undefined,
    authorization: string | undefined,
  ): Promise<RequestClaims> {
    const token = authorization && /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    // supabase-js's createClient repeats its key as the bearer when no one is signed in; the
    // gateway reads that as the key alone.
    if (authorization === undefined || (token === apikey && this.knowsApiKey(apikey))) {
      return this.isSecretKey(apikey) ? { role: 'service_role' } : { role: 'anon' };
    }
    if (!token || !JWT_SHAPE.test(token)) {
      throw new RestError(
        401,
        'PGRST301',
        'Authorization must carry a user token (a JWT)',
        null,
        'Send API keys in the apikey header only',
      );
    }
    try {
      const { payload } = await jwtVerify(token, (header) => this.keyFor(header), {
        algorithms: this.legacyKey ? [TOKEN_ALGORITHM, 'HS256'] : [TOKEN_ALGORITHM],
        audience: TOKEN_AUDIENCE,
        requiredClaims: ['exp'],
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

  private keyFor(header: JWTHeaderParameters): CryptoKey | Uint8Array {
    if (header.alg === 'HS256' && this.legacyKey) return this.legacyKey;
    if (header.alg === TOKEN_ALGORITHM && header.kid === this.keys.signingJwk.kid) {
      return this.verifyKey;
    }
    throw new Error(`No key for ${String(header.alg)} / ${String(header.kid)}`);
  }
}

/**
 * The server's keys: from the environment when set (WALLET_LOGIN_SIGNING_JWK,
 * SUPABASE_SECRET_KEYS, JWT_SECRET), otherwise kept in the data directory, made on first start
 * and readable by their owner only. `npm run functions:serve` reads the same files.
 */
export function loadServerKeys(
  dataDir: string,
  publishableKey: string,
  env: NodeJS.ProcessEnv = process.env,
): ServerKeys {
  // Keys kept in the data directory: it is made private first.
  if (!env.WALLET_LOGIN_SIGNING_JWK || !projectSecretKey((name) => env[name])) {
    makePrivateDataDir(dataDir);
  }
  const signingJwk = env.WALLET_LOGIN_SIGNING_JWK
    ? parseSigningJwk(env.WALLET_LOGIN_SIGNING_JWK)
    : parseSigningJwk(
        keptFile(dataDir, 'signing-key.jwk', () => JSON.stringify(newSigningJwk(), null, 2)),
        path.join(dataDir, 'signing-key.jwk'),
      );
  const secretKey =
    projectSecretKey((name) => env[name]) ?? keptFile(dataDir, 'secret-key', newSecretKey);
  return { publishableKey, secretKey, signingJwk, legacyJwtSecret: env.JWT_SECRET || undefined };
}

/** Fresh keys held in memory only (tests, benchmarks). */
export function newServerKeys(publishableKey: string): ServerKeys {
  return { publishableKey, secretKey: newSecretKey(), signingJwk: newSigningJwk() };
}

/** What `supabase gen signing-key --algorithm ES256` prints, made with Node's own crypto. */
export function newSigningJwk(): SigningJwk {
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return parseSigningJwk(
    JSON.stringify({
      ...privateKey.export({ format: 'jwk' }),
      kid: crypto.randomUUID(),
      use: 'sig',
      key_ops: ['sign', 'verify'],
      alg: TOKEN_ALGORITHM,
      ext: true,
    }),
  );
}

/** A secret key in the shape of Supabase's (sb_secret_...). */
function newSecretKey(): string {
  return `sb_secret_${crypto.randomBytes(24).toString('base64url')}`;
}

/**
 * The file's text; made once with make() when missing. It is written whole under another name
 * and linked into place, so a process starting at the same moment reads all of it or none.
 */
function keptFile(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, `${make()}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}

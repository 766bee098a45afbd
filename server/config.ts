import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_PUBLISHABLE_KEY } from '../common/publishableKey';
import { siteOrigins } from '../supabase/functions/_shared/supabaseProject';
import { parseChainRpcUrls } from '../supabase/functions/_shared/walletSignature';
import { connectSourcesOf } from './securityHeaders';

/**
 * Which proxies' X-Forwarded-For the server believes: none (false), any (true), the last n hops
 * (a number), or the proxies at these addresses and ranges.
 */
export type TrustProxy = boolean | number | string[];

/** Everything the server reads from its environment, with the defaults `npm start` uses. */
export interface ServerConfig {
  port: number;
  host: string;
  /** The built SPA (npm run build); null when the webpack dev server serves it (npm run dev). */
  distDir: string | null;
  /** Where the embedded database and the generated keys live. */
  dataDir: string;
  /** PostgreSQL instead of the embedded database, when set. */
  databaseUrl: string | undefined;
  /** The publishable key browsers send as apikey (SUPABASE_PUBLISHABLE_KEY). */
  publishableKey: string;
  /** Where the Edge Functions are served under Deno (npm run functions:serve), if forwarded. */
  functionsUrl: string | null;
  /** The hosted backend the app was built to call (SUPABASE_URL), allowed in connect-src. */
  backendOrigin: string | null;
  /** The origins sign-in messages must name; by default this server's own, on localhost. */
  siteUrls: string[] | null;
  /** Player servers the deployer allows in connect-src (CONNECT_SRC), as the build does. */
  connectSources: string[];
  /** Whose X-Forwarded-For names the client (TRUST_PROXY): request.ip, limits and logs. */
  trustProxy: TrustProxy;
  /** Nonce requests and logins allowed per IP address per minute. */
  signInRateLimit: number;
  /** Where smart accounts' signatures are checked, by chain id (CHAIN_RPC_URLS). */
  chainRpcUrls: ReadonlyMap<number, string>;
  /** Cloud-save writes allowed per wallet per minute. */
  storyWriteRateLimit: number;
  logLevel: string;
}

const projectRoot = path.resolve(__dirname, '..');

function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    throw new Error(`${name} must be a whole number, got '${value}'`);
  }
  return number;
}

/** proxy-addr's names for the loopback, link-local and private ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || prefix === undefined || rest.length > 0 || !/^\d{1,3}$/.test(prefix)) {
    return false;
  }
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off unless set. `true` believes any X-Forwarded-For (only when nothing but the
 * proxy can reach the server), a number the last that many hops, and a comma-separated list
 * the proxies at those addresses or ranges (CIDR, or loopback, linklocal, uniquelocal).
 */
export function trustProxyOf(value: string | undefined): TrustProxy {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || trimmed === 'false' || trimmed === '0') return false;
  if (trimmed === 'true') return true;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined) {
    throw new Error(
      `TRUST_PROXY must be true, a hop count, or a comma-separated list of proxy addresses or ` +
        `CIDR ranges, got '${value}' ('${wrong}' is none of these)`,
    );
  }
  return entries;
}

/**
 * TRUST_PROXY as Fastify's trustProxy option. Fastify 5 no longer reads a number as a hop count
 * (it trusts no hop: a hop count cannot tell the proxy from a client that reaches the server
 * directly), so the count is given as the function it used to be. Safe only where the proxy
 * is the one way in (the README says so); naming the proxy's address is safe everywhere.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = positiveInteger(env.PORT, 'PORT', 8080);
  if (port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    distDir:
      env.SERVE_APP === 'false'
        ? null
        : path.resolve(env.DIST_DIR ?? path.join(projectRoot, 'dist')),
    dataDir: path.resolve(env.DATA_DIR ?? path.join(projectRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    publishableKey:
      env.SUPABASE_PUBLISHABLE_KEY || env.SUPABASE_ANON_KEY || DEFAULT_PUBLISHABLE_KEY,
    functionsUrl: env.FUNCTIONS_URL ? new URL(env.FUNCTIONS_URL).origin : null,
    backendOrigin: env.SUPABASE_URL ? new URL(env.SUPABASE_URL).origin : null,
    siteUrls: env.SITE_URL ? siteOrigins(env.SITE_URL) : null,
    connectSources: connectSourcesOf(env.CONNECT_SRC),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    signInRateLimit: positiveInteger(env.SIGN_IN_RATE_LIMIT, 'SIGN_IN_RATE_LIMIT', 30),
    chainRpcUrls: parseChainRpcUrls(env.CHAIN_RPC_URLS),
    storyWriteRateLimit: positiveInteger(env.STORY_WRITE_RATE_LIMIT, 'STORY_WRITE_RATE_LIMIT', 60),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}

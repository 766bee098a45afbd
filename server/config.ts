import path from 'node:path';
import { DEFAULT_PUBLISHABLE_KEY } from '../src/api/backend';
import { siteOrigins } from '../supabase/functions/_shared/supabaseProject';

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
  /** Nonce requests and logins allowed per IP address per minute. */
  signInRateLimit: number;
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
    signInRateLimit: positiveInteger(env.SIGN_IN_RATE_LIMIT, 'SIGN_IN_RATE_LIMIT', 30),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}

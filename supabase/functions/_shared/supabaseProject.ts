/**
 * What a function needs from its Supabase project, read the way Supabase hands it over: the
 * secret API key (SUPABASE_SECRET_KEYS, a JSON dictionary such as {"default": "sb_secret_..."},
 * or the legacy SUPABASE_SERVICE_ROLE_KEY on older projects), the site's origins (SITE_URL),
 * and the nonce spent through the REST API. No database driver: keys, not connections.
 */

import type { SignInRefusal } from './walletLogin.ts';

type Env = (name: string) => string | undefined;

/** The project's secret key, or null when neither variable holds one. */
export function projectSecretKey(env: Env): string | null {
  const keys = env('SUPABASE_SECRET_KEYS');
  if (keys) {
    let dictionary: unknown;
    try {
      dictionary = JSON.parse(keys);
    } catch {
      throw new Error('SUPABASE_SECRET_KEYS is not JSON: expected {"default": "sb_secret_..."}');
    }
    const named = (dictionary ?? {}) as Record<string, unknown>;
    const key = named.default ?? Object.values(named)[0];
    if (typeof key !== 'string' || key === '') {
      throw new Error('SUPABASE_SECRET_KEYS holds no key: expected {"default": "sb_secret_..."}');
    }
    return key;
  }
  return env('SUPABASE_SERVICE_ROLE_KEY') || null;
}

/** SITE_URL: one origin or several, comma-separated (the site and its previews). */
export function siteOrigins(siteUrl: string): string[] {
  return siteUrl
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '')
    .map((url) => {
      try {
        return new URL(url).origin;
      } catch {
        throw new Error(`SITE_URL must list the site's URLs; '${url}' is not one`);
      }
    });
}

/**
 * The headers that make a REST request run as service_role. A secret key (sb_secret_...) goes in
 * apikey only: it is not a JWT, and Authorization carries only tokens. A legacy service-role key
 * is a JWT, which PostgREST reads from Authorization.
 */
export function serviceHeaders(secretKey: string): Record<string, string> {
  return secretKey.startsWith('sb_')
    ? { apikey: secretKey }
    : { apikey: secretKey, Authorization: `Bearer ${secretKey}` };
}

/** Calls one of the project's SQL functions through its REST API as service_role. */
function serviceRpc(supabaseUrl: string, secretKey: string, fetchFn: typeof fetch) {
  const base = `${supabaseUrl.replace(/\/+$/, '')}/rest/v1/rpc`;
  return async (name: string, args: Record<string, unknown>) => {
    const response = await fetchFn(`${base}/${name}`, {
      method: 'POST',
      headers: { ...serviceHeaders(secretKey), 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });
    const body = (await response.json().catch(() => null)) as unknown;
    return { response, body };
  };
}

/** An answer that is not the rows asked for, as an error that says what came instead. */
function unexpected(name: string, response: Response, body: unknown): Error {
  const message = (body as { message?: unknown } | null)?.message;
  const reason = message === undefined ? 'no JSON' : String(message);
  return new Error(`${name} answered ${response.status}: ${reason}`);
}

/**
 * Spends a nonce with public.spend_sign_in_nonce (granted to service_role only), through the
 * project's REST API. A refusal from the API is an error (the handler answers 500), never a
 * refused sign-in: the player did nothing wrong.
 */
export function restNonceSpender(supabaseUrl: string, secretKey: string, fetchFn = fetch) {
  const rpc = serviceRpc(supabaseUrl, secretKey, fetchFn);
  return async (request: {
    walletAddress: string;
    nonce: string;
    maxAgeSeconds: number;
  }): Promise<boolean> => {
    const { response, body } = await rpc('spend_sign_in_nonce', {
      p_wallet_address: request.walletAddress,
      p_nonce: request.nonce,
      p_max_age_seconds: request.maxAgeSeconds,
    });
    if (!response.ok || !Array.isArray(body)) {
      throw unexpected('spend_sign_in_nonce', response, body);
    }
    return (body[0] as { spent?: unknown } | undefined)?.spent === true;
  };
}

/**
 * Counts a login with public.admit_sign_in (granted to service_role only), through the
 * project's REST API: null when it may go on, PostgREST's 429 to pass on when the caller's limit
 * is spent. Any other answer is an error (500).
 */
export function restSignInAdmission(supabaseUrl: string, secretKey: string, fetchFn = fetch) {
  const rpc = serviceRpc(supabaseUrl, secretKey, fetchFn);
  return async (callerHeaders: Record<string, string>): Promise<SignInRefusal | null> => {
    const { response, body } = await rpc('admit_sign_in', { p_request_headers: callerHeaders });
    if (response.status === 429) {
      return { status: 429, body, retryAfter: response.headers.get('retry-after') };
    }
    if (!response.ok || !Array.isArray(body)) throw unexpected('admit_sign_in', response, body);
    return null;
  };
}

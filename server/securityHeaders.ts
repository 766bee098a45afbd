import type { FastifyInstance } from 'fastify';
import {
  LOOPBACK_CONNECT_SOURCES,
  connectOriginOf,
  connectOriginsOfCookies,
  isConnectOrigin,
  presetConnectOrigins,
} from '../common/connectSources';

/**
 * The one source of the security headers: the Node server sends them (registerSecurityHeaders
 * below), the build writes them into dist/_headers for static hosts, and the README's nginx and
 * Caddy examples are printed from them (server/headerFiles.ts, scripts/headers.ts).
 */

/**
 * The page keeps the player's API key in localStorage, so what may run in it and where it may
 * send data is pinned down: scripts, styles and fonts only from the site (the build has no
 * inline script or style), images from there, data: URLs (the icons wallets announce
 * themselves with, EIP-6963) or blob: URLs (the story's pictures read from MyStoriesDB, issue
 * 41: a blob: URL is the page's own, never a provider's address), and requests only to the
 * site, the hosted backend the build names, the presets' providers, a local model server, and
 * the player's own Custom or Local servers (CONNECT_SRC, and on the Node server the `taleweaver-connect` cookie: the list and
 * the cookie in common/connectSources.ts, how and why in src/features/llm/connectPolicy.ts).
 * The page cannot be framed, and nothing else can be embedded or a form posted elsewhere.
 */
export function contentSecurityPolicy(connectSources: readonly string[]): string {
  const directives: Record<string, readonly string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'font-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'connect-src': ["'self'", ...new Set(connectSources)],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * Powerful features the game never asks for, switched off for the page and anything it could
 * embed. Only names Chromium recognises: an unknown one (Chromium 156 knows no `bluetooth`,
 * `battery` or `web-share`) is logged as an error on every page load. Read aloud is
 * speechSynthesis, which no policy gates, and copying the wallet address (clipboard-write)
 * stays allowed.
 */
export const DENIED_FEATURES = [
  'accelerometer',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

/** Two years, the preload list's figure; only ever sent for an https site. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

export interface SecurityHeaderOptions {
  /** The hosted backend the build talks to (SUPABASE_URL), when it is not the site itself. */
  backendOrigin: string | null;
  /** The player servers the deployer named (CONNECT_SRC), valid origins (connectSourcesOf). */
  connectSources: readonly string[];
  /** Whether the site is served over https: then browsers are told to keep to it (HSTS). */
  https: boolean;
}

/** Header names and values, in the order they are written. */
export type HeaderSet = Readonly<Record<string, string>>;

/** Every security header the site sends, as data: the same for every server and host. */
export function securityHeaders({
  backendOrigin,
  connectSources,
  https,
}: SecurityHeaderOptions): HeaderSet {
  const connect = [
    ...(backendOrigin ? [backendOrigin] : []),
    ...presetConnectOrigins(),
    ...LOOPBACK_CONNECT_SOURCES,
    ...connectSources,
  ];
  return {
    'Content-Security-Policy': contentSecurityPolicy(connect),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // frame-ancestors' older equivalent, for browsers that predate it.
    'X-Frame-Options': 'DENY',
    // No other site's window keeps a handle on this one, nor embeds its files.
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': DENIED_FEATURES.map((feature) => `${feature}=()`).join(', '),
    ...(https ? { 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/**
 * The player servers a deployer names in CONNECT_SRC (build and Node server): origins separated
 * by commas or spaces, each as strict as the cookie's (common/connectSources.ts isConnectOrigin).
 * Anything else is refused with the value and, where there is one, the origin it should be.
 */
export function connectSourcesOf(value: string | undefined, name = 'CONNECT_SRC'): string[] {
  const origins = (value ?? '').split(/[\s,]+/).filter((origin) => origin !== '');
  for (const origin of origins) {
    if (isConnectOrigin(origin)) continue;
    const meant = connectOriginOf(origin);
    const hint = meant && isConnectOrigin(meant) ? ` (did you mean '${meant}'?)` : '';
    throw new Error(
      `${name} must list origins (http or https, a lowercase host name or IPv4 address, an ` +
        `optional port; no path, wildcard or quote), got '${origin}'${hint}`,
    );
  }
  return [...new Set(origins)];
}

/** Whether the site is served over https: SITE_URL names an https origin. */
export const servesHttps = (siteUrls: readonly string[] | null): boolean =>
  (siteUrls ?? []).some((origin) => origin.startsWith('https:'));

/**
 * Sends the headers with every response: the page, assets, API answers and errors (404, 413,
 * 429, 500) alike, since onSend runs for each of them. Only this server can read the player's
 * `taleweaver-connect` cookie, so only here does connect-src grow by request.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeaderOptions,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const playerOrigins = connectOriginsOfCookies(request.headers.cookie);
    const connectSources = [...options.connectSources, ...playerOrigins];
    reply.headers(securityHeaders({ ...options, connectSources }));
    return payload;
  });
}

/** Source maps are never served, even if a build left some behind (the build makes none). */
export const isSourceMap = (url: string): boolean => /\.map$/i.test(url.split('?')[0] ?? '');

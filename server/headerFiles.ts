/**
 * The security headers (securityHeaders.ts) written out for servers other than the Node one:
 * dist/_headers, which Cloudflare Pages and Netlify read, and the nginx and Caddy examples in the
 * README (scripts/headers.ts prints them and keeps the README's copy up to date).
 */
import { connectSourcesOf, type HeaderSet, type SecurityHeaderOptions } from './securityHeaders';

/** How long the Node server lets each kind of file be cached (server/app.ts, serveApp). */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PAGE_CACHE_CONTROL = 'no-cache';

/**
 * The cache rules of a static host. The security headers' rule (/*) sets no Cache-Control,
 * since both hosts join the values of every rule a path matches.
 */
const CACHE_RULES: readonly [path: string, cacheControl: string][] = [
  // Hashed names: a file under assets/ never changes.
  ['/assets/*', ASSET_CACHE_CONTROL],
  // The page names the current assets, so it is always revalidated.
  ['/index.html', PAGE_CACHE_CONTROL],
  ['/', PAGE_CACHE_CONTROL],
];

/** Cloudflare Pages reads at most 100 rules and 2,000 characters a line. */
export const HEADERS_FILE_MAX_RULES = 100;
export const HEADERS_FILE_MAX_LINE = 2000;

/**
 * What a build allows, from the variables it is built with: the backend (SUPABASE_URL) and the
 * player servers (CONNECT_SRC). A static host serves https, so HSTS is on.
 */
export function builtHeaderOptions(env: NodeJS.ProcessEnv): SecurityHeaderOptions {
  let backendOrigin: string | null = null;
  if (env.SUPABASE_URL) {
    try {
      backendOrigin = new URL(env.SUPABASE_URL).origin;
    } catch {
      throw new Error(`SUPABASE_URL must be a URL, got '${env.SUPABASE_URL}'`);
    }
  }
  return { backendOrigin, connectSources: connectSourcesOf(env.CONNECT_SRC), https: true };
}

/** dist/_headers: each path, then its headers on indented `Name: value` lines. */
export function headersFile(headers: HeaderSet): string {
  const rules: [string, HeaderSet][] = [
    ['/*', headers],
    ...CACHE_RULES.map(([path, value]): [string, HeaderSet] => [path, { 'Cache-Control': value }]),
  ];
  const lines = [
    '# Written by the build from server/securityHeaders.ts: edit that, not this file.',
    ...rules.flatMap(([path, set]) => [
      path,
      ...Object.entries(set).map(([name, value]) => `  ${name}: ${value}`),
    ]),
  ];
  const tooLong = lines.find((line) => line.length > HEADERS_FILE_MAX_LINE);
  if (tooLong !== undefined) {
    throw new Error(
      `dist/_headers would have a line of ${tooLong.length} characters, over the ` +
        `${HEADERS_FILE_MAX_LINE} static hosts read: name fewer servers in CONNECT_SRC ` +
        `(${tooLong.slice(0, 60)}...)`,
    );
  }
  if (rules.length > HEADERS_FILE_MAX_RULES) {
    throw new Error(
      `dist/_headers would have ${rules.length} rules, over ${HEADERS_FILE_MAX_RULES}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Reads a _headers file back: each path and its headers (what the hosts do with it). */
export function readHeadersFile(text: string): Record<string, Record<string, string>> {
  const rules: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = rules[line.trim()] = {};
      continue;
    }
    const colon = line.indexOf(':');
    if (current === null || colon < 0) throw new Error(`Not a header line: '${line}'`);
    current[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return rules;
}

/**
 * nginx, in the server block (`always`: on error responses too). A location with add_header
 * lines of its own drops these, so such a location repeats them.
 */
export function nginxHeaders(headers: HeaderSet): string {
  return Object.entries(headers)
    .map(([name, value]) => `add_header ${name} "${value}" always;`)
    .join('\n');
}

/** Caddy, in the site block. */
export function caddyHeaders(headers: HeaderSet): string {
  const lines = Object.entries(headers).map(([name, value]) => `\t${name} "${value}"`);
  return ['header {', ...lines, '}'].join('\n');
}

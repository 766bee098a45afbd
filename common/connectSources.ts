/**
 * Which language-model hosts the page may call, as both sides read it: the server writes them
 * into the connect-src of the Content-Security-Policy it sends (server/securityHeaders.ts), and
 * the page checks its own policy before a key check (src/features/llm/connectPolicy.ts, where
 * the whole story of the `taleweaver-connect` cookie is told). Neither side owns the other, so
 * what both need lives here, importing nothing of either.
 *
 * The presets' hosts are listed here once: the llm feature's presets (providers.ts) take their
 * base URLs from PRESET_BASE_URLS, so a new preset is in every page's policy the day it is
 * added. A local server (Ollama, LM Studio, llama.cpp) is on localhost or 127.0.0.1, in every
 * page's policy as the loopback sources.
 */

/** Where each preset provider's OpenAI-compatible API lives (DESIGN.md, "Language model"). */
export const PRESET_BASE_URLS = {
  groq: 'https://api.groq.com/openai/v1',
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  together: 'https://api.together.xyz/v1',
  local: 'http://localhost:11434/v1',
} as const;

export const CONNECT_COOKIE = 'taleweaver-connect';
/** The player's own origins the cookie keeps, the latest first. */
export const MAX_CONNECT_ORIGINS = 4;
/** Longer than any real origin needs; a longer value is ignored, not cut. */
export const MAX_CONNECT_ORIGIN_LENGTH = 200;
/** A cookie longer than this is not read at all. */
const MAX_COOKIE_VALUE_LENGTH = 1024;
/** A year: the player does not have to name their server again. */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Local servers on any port; an http: source matches https: too (CSP level 3). */
export const LOOPBACK_CONNECT_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*'] as const;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** scheme://host[:port], lowercase, as URL.origin writes it: no path, quote, space or `*`. */
const CONNECT_ORIGIN = new RegExp(`^https?://${LABEL}(?:\\.${LABEL})*(?::(\\d{1,5}))?$`);

/** Whether `value` is an origin the server may put in connect-src as it is. */
export function isConnectOrigin(value: string): boolean {
  if (value.length > MAX_CONNECT_ORIGIN_LENGTH) return false;
  const match = CONNECT_ORIGIN.exec(value);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/** The origin a base URL's requests go to, or null when it is not an http(s) URL. */
export function connectOriginOf(baseUrl: string): string | null {
  try {
    const url = new URL(baseUrl.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Whether an origin is a local server's, allowed on any port by LOOPBACK_CONNECT_SOURCES. */
export const isLoopback = (origin: string) => LOOPBACK_HOSTS.has(new URL(origin).hostname);

/** The presets' hosts; the local preset is covered by the loopback. */
export function presetConnectOrigins(): string[] {
  const origins = Object.values(PRESET_BASE_URLS)
    .map(connectOriginOf)
    .filter((origin): origin is string => origin !== null && !isLoopback(origin));
  return [...new Set(origins)];
}

/**
 * The player's origins in a cookie string (a Cookie header or document.cookie): only the valid
 * ones, without repeats, at most MAX_CONNECT_ORIGINS. Anything malformed is left out.
 */
export function connectOriginsOfCookies(cookies: string | undefined): string[] {
  const prefix = `${CONNECT_COOKIE}=`;
  const raw = (cookies ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  if (!raw || raw.length > MAX_COOKIE_VALUE_LENGTH) return [];
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return [];
  }
  const origins = value.split(' ').filter(isConnectOrigin);
  return [...new Set(origins)].slice(0, MAX_CONNECT_ORIGINS);
}

/** The cookie naming `origin` first, then the earlier ones, for document.cookie. */
export function connectCookie(origin: string, earlier: readonly string[], secure: boolean): string {
  const origins = [origin, ...earlier.filter((other) => other !== origin)];
  const value = encodeURIComponent(origins.slice(0, MAX_CONNECT_ORIGINS).join(' '));
  const attributes = ['Path=/', `Max-Age=${COOKIE_MAX_AGE_S}`, 'SameSite=Lax'];
  return [`${CONNECT_COOKIE}=${value}`, ...attributes, ...(secure ? ['Secure'] : [])].join('; ');
}

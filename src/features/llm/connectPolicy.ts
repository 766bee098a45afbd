/**
 * Which language-model hosts the page may call: the connect-src of the Content-Security-Policy
 * the server sends (server/securityHeaders.ts), shared by the server and the app so that both
 * read the same list and the same cookie.
 *
 * The presets' hosts come from providers.ts and a local server (Ollama, LM Studio, llama.cpp) is
 * on localhost or 127.0.0.1, so those are in every page's policy. A Custom or Local base URL
 * elsewhere is the player's own choice, unknown to the server until the player names it:
 * 1. when a key check is about to call an origin the page's policy does not hold, the app
 *    writes that origin into the `taleweaver-connect` cookie (with up to three earlier ones),
 *    keeps the check in sessionStorage and reloads the page, once;
 * 2. the server reads the cookie with every request, keeps only origins that pass the strict
 *    check below (http or https, a host name or IPv4 address, an optional port: nothing that
 *    could add a keyword, a wildcard or another directive) and adds them to connect-src;
 * 3. the reloaded key screen finds the kept check and submits it again (useResumedKeyCheck).
 * Whoever sets the cookie can only add well-formed hosts to connect-src; scripts, styles and
 * every other directive stay as they are.
 *
 * A static host serving a build for a hosted backend reads no cookie: its policy is the
 * build's dist/_headers, with the player servers the deployer named in CONNECT_SRC. There a
 * reload cannot help, so the key check stops with a message naming the origin to add.
 */
import type { ConnectPage } from './connectPage';
import { PROVIDERS } from './providers';

export type { ConnectPage };

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

const isLoopback = (origin: string) => LOOPBACK_HOSTS.has(new URL(origin).hostname);

/** The presets' hosts, read from providers.ts; the local preset is covered by the loopback. */
export function presetConnectOrigins(): string[] {
  const origins = PROVIDERS.map((provider) => connectOriginOf(provider.baseUrl)).filter(
    (origin): origin is string => origin !== null && !isLoopback(origin),
  );
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

// ---- The page's side: what this page's policy holds, and the reload that widens it ----

/** What the player submitted, kept across the reload (sessionStorage, this tab only). */
export interface PendingKeyCheck {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  /** When it was kept (ms since the epoch): an old one is not resumed. */
  savedAt: number;
}

const PENDING_KEY = 'taleweaver-pending-key-check';
/** The origin the page last reloaded for: never twice in a row (cookies may be blocked). */
const RELOADED_FOR_KEY = 'taleweaver-connect-reloaded-for';
/** A check older than this (a tab restored later) is not resumed. */
const PENDING_MAX_AGE_MS = 60_000;

/**
 * Whether the policy this page was served with lets it call `origin`: the one place the app
 * reads what server/securityHeaders.ts wrote into connect-src.
 */
export function pageAllows(page: ConnectPage, origin: string): boolean {
  return (
    origin === page.origin ||
    isLoopback(origin) ||
    presetConnectOrigins().includes(origin) ||
    page.builtOrigins.includes(origin) ||
    (page.widensByCookie && connectOriginsOfCookies(page.cookiesAtLoad).includes(origin))
  );
}

/**
 * What the key check does about `origin`: go ahead, reload with it allowed, or stop because
 * only the deployer can allow it (a static host). After one reload for an origin that is still
 * not allowed (a cookie the browser refused), and for an origin no policy can name, it goes
 * ahead and the player sees the provider as unreachable.
 */
export function connectStep(page: ConnectPage, origin: string): 'go' | 'reload' | 'blocked' {
  if (pageAllows(page, origin)) {
    page.sessionStorage.removeItem(RELOADED_FOR_KEY);
    return 'go';
  }
  if (!isConnectOrigin(origin)) return 'go';
  if (!page.widensByCookie) return 'blocked';
  return page.sessionStorage.getItem(RELOADED_FOR_KEY) !== origin ? 'reload' : 'go';
}

/** Adds `origin` to the cookie, keeps the check for the reloaded page, and reloads. */
export function reloadToAllow(
  page: ConnectPage,
  origin: string,
  check: Omit<PendingKeyCheck, 'savedAt'>,
): void {
  const earlier = connectOriginsOfCookies(page.readCookies());
  page.writeCookie(connectCookie(origin, earlier, page.origin.startsWith('https:')));
  page.sessionStorage.setItem(RELOADED_FOR_KEY, origin);
  const pending: PendingKeyCheck = { ...check, savedAt: Date.now() };
  page.sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  page.reload();
}

/** The check kept before a reload, if it is recent; it stays kept until forgotten. */
export function readPendingKeyCheck(storage: Storage, now = Date.now()): PendingKeyCheck | null {
  let check: Partial<PendingKeyCheck>;
  try {
    check = JSON.parse(storage.getItem(PENDING_KEY) ?? 'null') as Partial<PendingKeyCheck>;
  } catch {
    forgetPendingKeyCheck(storage);
    return null;
  }
  if (!check || typeof check !== 'object') return null;
  const { provider, model, baseUrl, apiKey, savedAt } = check;
  const texts = [provider, model, baseUrl, apiKey].every((field) => typeof field === 'string');
  const recent =
    typeof savedAt === 'number' && now - savedAt >= 0 && now - savedAt < PENDING_MAX_AGE_MS;
  if (texts && recent) return check as PendingKeyCheck;
  // A check too old or malformed to resume holds an API key for nothing: it goes.
  forgetPendingKeyCheck(storage);
  return null;
}

/** Forgets the kept check (resumed, or replaced by the player's own Submit). */
export function forgetPendingKeyCheck(storage: Storage): void {
  storage.removeItem(PENDING_KEY);
}

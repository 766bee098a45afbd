/**
 * Which language-model hosts the page may call: the connect-src of the Content-Security-Policy
 * the server sends (server/securityHeaders.ts). The list and the cookie both sides read are in
 * common/connectSources.ts; this is the page's side.
 *
 * The presets' hosts (common/connectSources.ts, which providers.ts takes its base URLs from)
 * and a local server (Ollama, LM Studio, llama.cpp) on localhost or 127.0.0.1 are in every
 * page's policy. A Custom or Local base URL elsewhere is the player's own choice, unknown to the
 * server until the player names it:
 * 1. when a key check is about to call an origin the page's policy does not hold, the app
 *    writes that origin into the `taleweaver-connect` cookie (with up to three earlier ones),
 *    keeps the check in sessionStorage and reloads the page, once;
 * 2. the server reads the cookie with every request, keeps only origins that pass the strict
 *    check of common/connectSources.ts (http or https, a host name or IPv4 address, an optional
 *    port: nothing that could add a keyword, a wildcard or another directive) and adds them to
 *    connect-src;
 * 3. the reloaded key screen finds the kept check and submits it again (useResumedKeyCheck).
 * Whoever sets the cookie can only add well-formed hosts to connect-src; scripts, styles and
 * every other directive stay as they are.
 *
 * A static host serving a build for a hosted backend reads no cookie: its policy is the
 * build's dist/_headers, with the player servers the deployer named in CONNECT_SRC. There a
 * reload cannot help, so the key check stops with a message naming the origin to add.
 */
import {
  CONNECT_COOKIE,
  connectCookie,
  connectOriginOf,
  connectOriginsOfCookies,
  isConnectOrigin,
  isLoopback,
  presetConnectOrigins,
} from '../../../common/connectSources';
import type { ConnectPage } from './connectPage';

export type { ConnectPage };
// What the server reads too lives in common/connectSources.ts; the app names it from here.
export { CONNECT_COOKIE, connectOriginOf };

// ---- The page's side: what this page's policy holds, and the reload that widens it ----

/** What the player submitted, kept across the reload (sessionStorage, this tab only). */
export interface PendingKeyCheck {
  provider: string;
  model: string;
  baseUrl: string;
  /** A Custom server's image model (issue 41); absent from a check kept by an earlier build. */
  imageModel?: string;
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

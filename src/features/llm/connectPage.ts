/**
 * The page the app runs in, as the key check needs it to widen the page's connect-src
 * (connectPolicy.ts). Kept apart from the policy so that the home bundle, which makes it when
 * the app starts, does not carry the provider presets.
 */
export interface ConnectPage {
  /** The page's own origin ('self'). */
  origin: string;
  /** document.cookie when the page loaded: what the server read to write this page's policy. */
  cookiesAtLoad: string;
  /** The player servers the build allows (CONNECT_SRC): in the policy wherever it is served. */
  builtOrigins: readonly string[];
  /**
   * Whether the server that sent the page reads the `taleweaver-connect` cookie into its policy,
   * so that a reload can widen it. One rule, fixed at build time: a build for a hosted backend
   * (SUPABASE_URL set) is for a static host, whose policy is dist/_headers and never grows; a
   * build without one is served by the Node server, which reads the cookie.
   */
  widensByCookie: boolean;
  /** document.cookie now. */
  readCookies(): string;
  writeCookie(cookie: string): void;
  sessionStorage: Storage;
  reload(): void;
}

/** The browser's page, read when the app starts (before anything can change the cookie). */
export function browserConnectPage(win: Window): ConnectPage {
  return {
    origin: win.location.origin,
    cookiesAtLoad: win.document.cookie,
    // Both written into the bundle by the build (webpack.config.ts).
    builtOrigins: (process.env.CONNECT_SRC ?? '').split(' ').filter((origin) => origin !== ''),
    widensByCookie: !process.env.SUPABASE_URL,
    readCookies: () => win.document.cookie,
    writeCookie: (cookie) => {
      win.document.cookie = cookie;
    },
    sessionStorage: win.sessionStorage,
    reload: () => win.location.reload(),
  };
}

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
    readCookies: () => win.document.cookie,
    writeCookie: (cookie) => {
      win.document.cookie = cookie;
    },
    sessionStorage: win.sessionStorage,
    reload: () => win.location.reload(),
  };
}

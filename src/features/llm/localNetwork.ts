/**
 * The page as Local Network Access sees it, for the saga context (DESIGN.md, "Local models
 * from a public site"): where the page is and the browser's Permissions API, read with
 * localNetworkPermission.ts. Made with the store on the home screen, so it is only these facts:
 * what asks the browser comes with the game's flows.
 */
export interface LocalNetworkAccess {
  /** The page's own host name (location.hostname). */
  pageHost: string;
  /** Only a secure context may be given the permission: a plain http public page never is. */
  secureContext: boolean;
  /** The browser's Permissions API (navigator.permissions); null where there is none. */
  permissions: Pick<Permissions, 'query'> | null;
}

/** The browser's page, as the saga context's default (src/app/sagaContext.ts). */
export function browserLocalNetworkAccess(win: Window): LocalNetworkAccess {
  return {
    pageHost: win.location.hostname,
    // A browser without isSecureContext predates Local Network Access: nothing to tell apart.
    secureContext: win.isSecureContext !== false,
    permissions: win.navigator.permissions ?? null,
  };
}

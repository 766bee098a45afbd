/**
 * What the browser reads of the server's token: its expiry (DESIGN.md, Sign-in: `exp`, 24 hours
 * after sign-in). Read, not verified: the server verifies the token on every request it
 * authorises. A JWT's claims are its second dot-separated part, base64url-encoded JSON (RFC 7519
 * section 3); reading them is a few lines, where jose's decodeJwt brought its validation and
 * error classes into the home screen's bundle (0.6 KB over the wire for one number).
 */

/** The UTF-8 text of a base64url string (RFC 4648 section 5, padding optional); throws if not one. */
function base64UrlText(encoded: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new Error('Not base64url');
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * The last token read and its expiry: the session check (walletSaga.ts) reads the same token
 * every second, and decoding it each time was most of that check's script time.
 */
let lastRead: { token: string; expiry: number | null } | null = null;

/** The expiry (seconds since the epoch) a token states, or null when it is not a JWT or has none. */
export function tokenExpiry(token: string): number | null {
  if (lastRead?.token !== token) lastRead = { token, expiry: expiryOf(token) };
  return lastRead.expiry;
}

function expiryOf(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims: unknown = JSON.parse(base64UrlText(parts[1]!));
    if (typeof claims !== 'object' || claims === null) return null;
    const { exp } = claims as { exp?: unknown };
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    // A malformed token is no session, not a crash of the wallet check.
    return null;
  }
}

/**
 * What the browser reads of the server's token: its expiry (DESIGN.md, Sign-in: `exp`, 24 hours
 * after sign-in). Read with jose's decodeJwt, not verified: the server verifies the token on
 * every request it authorises.
 */
import { decodeJwt } from 'jose/jwt/decode';

/** The expiry (seconds since the epoch) a token states, or null when it is not a JWT or has none. */
export function tokenExpiry(token: string): number | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp : null;
  } catch {
    // A malformed token is no session, not a crash of the wallet check.
    return null;
  }
}

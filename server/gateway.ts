/**
 * What Supabase's gateway tells the services behind it about the caller, done the same way by
 * the local server, which stands in for it: the sign-in limit (migration
 * 20261126130000_sign_in_limits.sql, public.client_address_of) keys on the address these
 * headers name, so a client must not be able to choose it.
 *
 * On Supabase, Cloudflare sets cf-connecting-ip to the address it saw, replacing the client's
 * own, and x-forwarded-for is appended to. Here the server drops any cf-connecting-ip a client
 * sent and sets x-forwarded-for to the one address it saw itself (the socket's, or the client's
 * behind a proxy it trusts: TRUST_PROXY), so the rule reads the same address either way.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The headers whose values name the caller; a client's own are never passed on. */
const CALLER_HEADERS = ['cf-connecting-ip', 'x-forwarded-for', 'x-real-ip'] as const;

/** The request's headers as the gateway forwards them: one value each, the caller's address set. */
export function forwardedHeaders(
  headers: IncomingHttpHeaders,
  clientAddress: string,
): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || (CALLER_HEADERS as readonly string[]).includes(name)) continue;
    forwarded[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  forwarded['x-forwarded-for'] = clientAddress;
  return forwarded;
}

/** The same, for a Web-standard Request's headers (the functions' side). */
export function setForwardedFor(headers: Headers, clientAddress: string): void {
  for (const name of CALLER_HEADERS) headers.delete(name);
  headers.set('x-forwarded-for', clientAddress);
}

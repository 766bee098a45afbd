/**
 * Which address space a host is in, as Local Network Access (LNA) sorts them: a page may call a
 * more private space only with the player's permission, which Chromium asks for since Chrome
 * 142 (DESIGN.md, "Local models from a public site"). The spaces and their ranges are Chrome's
 * (developer.chrome.com/docs/modern-web-guidance/guides/security/local-network-access):
 * - loopback: 127.0.0.0/8, ::1 and localhost (this computer);
 * - local: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, link-local 169.254.0.0/16 and fe80::/10,
 *   unique local fc00::/7, and `.local` (mDNS) names (the player's own network);
 * - public: everything else.
 * The browser decides by the address a name resolves to; the page sees only the name, so a
 * name that is not one of these (an intranet's `ollama.lan`) counts as public here.
 */

export type AddressSpace = 'loopback' | 'local' | 'public';

/** How private each space is: a request into a higher one needs the permission. */
const PRIVACY: Readonly<Record<AddressSpace, number>> = { public: 0, local: 1, loopback: 2 };

/** A dotted IPv4 address, as URL writes every one ('0x7f.1' becomes '127.0.0.1'). */
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const LOCAL_IPV4 = /^(10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|169\.254\.)/;
/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1 is written [::ffff:7f00:1]). */
const MAPPED_IPV6 = /^\[::ffff:([\da-f]{1,4}):([\da-f]{1,4})\]$/;
/** Link-local fe80::/10 and unique local fc00::/7: a first group of fe80-febf or fc00-fdff. */
const LOCAL_IPV6 = /^\[(fe[89ab]|f[cd][\da-f])[\da-f]:/;

function ipv4Space(address: string): AddressSpace {
  // 0.0.0.0 reaches this computer on the systems local model servers run on.
  if (/^(127|0)\./.test(address)) return 'loopback';
  return LOCAL_IPV4.test(address) ? 'local' : 'public';
}

/** The address space of a host name or address, as `URL.hostname` gives it. */
export function addressSpaceOfHost(hostname: string): AddressSpace {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return 'loopback';
  if (host.endsWith('.local') || LOCAL_IPV6.test(host)) return 'local';
  const mapped = MAPPED_IPV6.exec(host);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return ipv4Space([high >> 8, high & 255, low >> 8, low & 255].join('.'));
  }
  return IPV4.test(host) ? ipv4Space(host) : 'public';
}

/** The address space a URL's requests go to, or null when it is not an http(s) URL. */
export function addressSpaceOfUrl(url: string): AddressSpace | null {
  try {
    const parsed = new URL(url.trim());
    const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
    return web ? addressSpaceOfHost(parsed.hostname) : null;
  } catch {
    return null;
  }
}

/**
 * The space a page must have the player's permission for, to call `target` from a page in
 * `page`: the target's, when it is more private than the page's (public -> local, public or
 * local -> loopback); null when no permission is asked.
 */
export function permissionSpaceFor(
  page: AddressSpace,
  target: AddressSpace | null,
): Exclude<AddressSpace, 'public'> | null {
  if (target === null || target === 'public') return null;
  return PRIVACY[target] > PRIVACY[page] ? target : null;
}

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

/** The four numbers of a dotted IPv4 address (as URL writes one), or null. */
function ipv4Of(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : null;
}

function ipv4Space([a, b]: number[]): AddressSpace {
  // 0.0.0.0 reaches this computer on the systems local model servers run on.
  if (a === 127 || a === 0) return 'loopback';
  const local =
    a === 10 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254);
  return local ? 'local' : 'public';
}

/** The eight 16-bit groups of an IPv6 address as URL writes one (lowercase hex, `::`), or null. */
function ipv6Of(host: string): number[] | null {
  const halves = host.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string | undefined) => (half ? half.split(':') : []);
  const [head, tail] = [groupsOf(halves[0]), groupsOf(halves[1])];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

function ipv6Space(groups: number[]): AddressSpace {
  const [first] = groups as [number];
  const zerosBefore = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zerosBefore(7) && groups[7] === 1) return 'loopback';
  // An IPv4-mapped address (::ffff:a.b.c.d) is in its IPv4 address's space.
  if (zerosBefore(5) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return ipv4Space([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  if ((first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00) return 'local';
  return 'public';
}

/** The address space of a host name or address, as `URL.hostname` gives it. */
export function addressSpaceOfHost(hostname: string): AddressSpace {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.endsWith('.local')) return 'local';
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = ipv6Of(host.slice(1, -1));
    return groups ? ipv6Space(groups) : 'public';
  }
  const ipv4 = ipv4Of(host);
  return ipv4 ? ipv4Space(ipv4) : 'public';
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

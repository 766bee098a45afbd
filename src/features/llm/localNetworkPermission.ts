/**
 * The player's Local Network Access permission, as the browser has it. Since Chrome 142 a page
 * may call a more private address space (addressSpace.ts) only once the player has allowed it;
 * the check runs before CORS, so a refusal looks like any failed fetch.
 *
 * The permission's names, from Chrome's guide (developer.chrome.com/docs/modern-web-guidance/
 * guides/security/local-network-access) and MDN's Permissions-Policy pages: `loopback-network`
 * (this computer) and `local-network` (the player's network) are the granular names;
 * `local-network-access` is the first one Chrome shipped, kept as an alias of both. A browser
 * that does not know a name rejects `permissions.query` with a TypeError (Chromium 156 knows
 * all three; Firefox and Safari none), so each is asked on its own.
 */
import type { AddressSpace } from './addressSpace';
import type { LocalNetworkAccess } from './localNetwork';

/** What the browser says of the permission; 'unknown' when it knows none of its names. */
export type LocalNetworkPermission = PermissionState | 'unknown';

export type PrivateSpace = Exclude<AddressSpace, 'public'>;

/** The names that gate a request into each space: the granular one, and the alias. */
export const PERMISSION_NAMES: Readonly<Record<PrivateSpace, readonly string[]>> = {
  loopback: ['loopback-network', 'local-network-access'],
  local: ['local-network', 'local-network-access'],
};

/**
 * The permission to reach `space`, by every name of it the browser knows: denied when any of
 * them is, since either refuses the request. In Chromium 156 a denial can show under one name
 * only: `local-network-access` denied (as CDP's Browser.setPermission sets it) leaves
 * `loopback-network` at 'prompt', and the request is still refused.
 */
export async function localNetworkPermission(
  { permissions }: Pick<LocalNetworkAccess, 'permissions'>,
  space: PrivateSpace,
): Promise<LocalNetworkPermission> {
  const states: PermissionState[] = [];
  for (const name of permissions ? PERMISSION_NAMES[space] : []) {
    try {
      // Names newer than the DOM typings: a browser that does not know one throws.
      states.push((await permissions!.query({ name } as unknown as PermissionDescriptor)).state);
    } catch {
      // Not a name this browser knows: the next one.
    }
  }
  const strongestFirst: PermissionState[] = ['denied', 'granted', 'prompt'];
  return strongestFirst.find((state) => states.includes(state)) ?? 'unknown';
}

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
 * all three; Firefox and Safari none), so each is tried in turn.
 */
import type { AddressSpace } from './addressSpace';
import type { LocalNetworkAccess } from './localNetwork';

/** What the browser says of the permission; 'unknown' when it knows none of its names. */
export type LocalNetworkPermission = PermissionState | 'unknown';

export type PrivateSpace = Exclude<AddressSpace, 'public'>;

/** The names to ask for, the granular one first. */
export const PERMISSION_NAMES: Readonly<Record<PrivateSpace, readonly string[]>> = {
  loopback: ['loopback-network', 'local-network-access'],
  local: ['local-network', 'local-network-access'],
};

/** The permission to reach `space`, by the first of its names the browser knows. */
export async function localNetworkPermission(
  { permissions }: Pick<LocalNetworkAccess, 'permissions'>,
  space: PrivateSpace,
): Promise<LocalNetworkPermission> {
  for (const name of permissions ? PERMISSION_NAMES[space] : []) {
    try {
      // Names newer than the DOM typings: a browser that does not know one throws.
      return (await permissions!.query({ name } as unknown as PermissionDescriptor)).state;
    } catch {
      // Not a name this browser knows: the next one.
    }
  }
  return 'unknown';
}

/**
 * The API key as the player types it on the key screen, so that the provider's model list can
 * be read before the key is submitted (issue 38, part 4). The key stays out of the store and
 * of every action (DESIGN.md: DevTools and logs never see it): the key screen holds it here,
 * and the store and the actions know it only by its fingerprint, a 32-bit hash: enough to tell
 * the keys one player types apart, far too little to recover a key from. The saga context
 * hands the holder to the model-list flow (`typedKey`).
 */
export interface TypedKey {
  /** Holds this key as the one typed, and returns its fingerprint. */
  hold(apiKey: string): string;
  /** The key typed, if it is still the one with this fingerprint; null once it has changed. */
  withFingerprint(fingerprint: string): string | null;
}

/** FNV-1a (32 bits) of the key, in hex; '' for no key. */
export function keyFingerprint(apiKey: string): string {
  const key = apiKey.trim();
  if (key === '') return '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export function typedKeyHolder(): TypedKey {
  let held = '';
  return {
    hold(apiKey) {
      held = apiKey.trim();
      return keyFingerprint(held);
    },
    withFingerprint: (fingerprint) => (keyFingerprint(held) === fingerprint ? held : null),
  };
}

/** The page's own: the key screen holds the key in it, the page's saga context reads it. */
export const pageTypedKey: TypedKey = typedKeyHolder();

/**
 * Redux DevTools must never show a secret: the player's API key, auth tokens, signatures.
 * Any field whose name says it holds one is masked, wherever it sits in state or actions.
 */
const SECRET_FIELD = /^(apiKey|authToken|token|accessToken|signature)$|^auth_token_/i;
export const MASK = '•••';

export function maskSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const masked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    masked[key] =
      SECRET_FIELD.test(key) && typeof field === 'string' && field !== ''
        ? MASK
        : maskSecrets(field);
  }
  return masked as T;
}

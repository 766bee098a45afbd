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

/** Actions whose whole payload is a secret (the key as typed and as accepted). */
const SECRET_PAYLOAD_ACTIONS = new Set(['game/apiKeySubmitted', 'game/apiKeyAccepted']);

/** What Redux DevTools shows of an action. */
export function maskAction<A extends { type: string; payload?: unknown }>(action: A): A {
  if (SECRET_PAYLOAD_ACTIONS.has(action.type) && action.payload)
    return { ...action, payload: MASK };
  return maskSecrets(action);
}

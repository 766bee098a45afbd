/** Type guards for values read from outside: model replies, stored and imported records. */

/** A plain object (not null, not an array), whose fields are still to be checked. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

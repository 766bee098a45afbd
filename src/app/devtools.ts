/**
 * Redux DevTools for a whole game (README, "Debugging with Redux DevTools"): the store's name,
 * how much history it keeps, the stream actions it hides, and the masking of every secret, in
 * what the monitor shows and in the sessions it exports.
 */
import type { DevToolsEnhancerOptions } from '@reduxjs/toolkit';

/** The per-frame action of streamed text: dozens a turn, hidden unless asked for. */
export const STREAM_ACTIONS: readonly string[] = ['game/segmentStreamed'];

/** localStorage['taleweaver:devtools:showStream'] = '1', then a reload: the stream is shown. */
export const SHOW_STREAM_SWITCH = 'taleweaver:devtools:showStream';

/**
 * History kept, counted in the actions the monitor shows (the extension does not count the
 * hidden ones): a whole 20-turn game is at most 20 × 25 turn actions plus about 100 for the
 * sign-in, key check, opening and ending, some 600; 2000 leaves room for retries and waits, and
 * for a second story in the same tab.
 */
export const MAX_AGE = 2000;

export const MASK = '•••';

/**
 * A field whose name says it holds a secret: the player's API key, auth tokens, the sign-in
 * signature, an Authorization header, and the wallet session's storage keys.
 */
const SECRET_FIELD =
  /^(api[-_]?key|x-api-key|auth[-_]?token|(access|refresh|id)?[-_]?token|signature|(proxy-)?authorization|password|secret)$|^(auth_token_|signature_0x)/i;

/** Actions whose whole payload is a secret (the key as typed and as accepted). */
const SECRET_PAYLOAD_ACTIONS = new Set(['game/apiKeySubmitted', 'game/apiKeyAccepted']);

/**
 * A JSON Web Token wherever it sits in a text (the server's auth token is one), as a message
 * that quotes a request might hold it. RTK Query's cache keys hold none: requests sent as the
 * wallet ask the wallet for its token as they leave, never take it as an argument.
 */
const JWT = /\beyJ[\w-]*\.[\w-]+\.[\w-]*/g;
const BEARER = /\bBearer\s+[\w.~+/-]+=*/gi;

function maskText(text: string): string {
  if (!text.includes('eyJ') && !/bearer/i.test(text)) return text;
  return text.replace(JWT, MASK).replace(BEARER, `Bearer ${MASK}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One value as DevTools may show it, its children left alone: a secret field's string is
 * masked, a string that carries a secret has it masked, and a key action loses its payload.
 * Plain data only; anything else is returned as it is.
 */
function maskNode(name: string, value: unknown): unknown {
  if (typeof value === 'string') {
    return SECRET_FIELD.test(name) && value !== '' ? MASK : maskText(value);
  }
  if (!isRecord(value)) return value;
  let node = value;
  if (
    typeof node.type === 'string' &&
    SECRET_PAYLOAD_ACTIONS.has(node.type) &&
    node.payload !== undefined &&
    node.payload !== null &&
    node.payload !== ''
  ) {
    node = { ...node, payload: MASK };
  }
  return node;
}

/** A copy of a state or an action with every secret masked, wherever it sits. */
export function maskSecrets<T>(value: T): T {
  const walk = (name: string, field: unknown): unknown => {
    const node = maskNode(name, field);
    if (Array.isArray(node)) return node.map((item) => walk('', item));
    if (!isRecord(node)) return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(key, child)]));
  };
  return walk('', value) as T;
}

/** What Redux DevTools shows of an action. */
export function maskAction<A extends { type: string; payload?: unknown }>(action: A): A {
  return maskSecrets(action);
}

/**
 * The JSON replacer the extension serializes with. Its sanitizers only change what the monitor
 * shows: an export ("Export" in the extension) is written from the raw actions and the
 * committed state, through this replacer, so it masks there too. It is called on every value on
 * the way down (jsan's or JSON.stringify's walk), so masking one node at a time is enough.
 */
export const maskWhileSerializing = (key: string, value: unknown): unknown => maskNode(key, value);

/**
 * jsan's own option (the extension's serializer): a value met twice is written out again rather
 * than as a `{"$jsan": path}` reference, so an export reads as plain JSON. RTK's type of the
 * serialize options does not list it.
 */
const PLAIN_JSON = { refs: false } as NonNullable<
  Exclude<DevToolsEnhancerOptions['serialize'], boolean | undefined>
>['options'];

/** Anchored, so that a type which only begins like a stream action stays visible. */
const exactType = (type: string) => `^${type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** Whether the one switch to show the stream actions is on in this browser. */
export function streamShown(storage: Pick<Storage, 'getItem'> | undefined): boolean {
  try {
    return storage?.getItem(SHOW_STREAM_SWITCH) === '1';
  } catch {
    // A storage the page may not read (a sandboxed frame): the default holds.
    return false;
  }
}

/** The options of the DevTools enhancer (configureStore's `devTools`). */
export function devToolsOptions({ showStream = false } = {}): DevToolsEnhancerOptions {
  return {
    name: 'Taleweaver',
    maxAge: MAX_AGE,
    ...(!showStream && { actionsDenylist: STREAM_ACTIONS.map(exactType) }),
    actionSanitizer: (action) => maskAction(action),
    stateSanitizer: (state) => maskSecrets(state),
    serialize: { replacer: maskWhileSerializing, options: PLAIN_JSON },
  };
}

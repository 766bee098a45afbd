/**
 * The interface's English messages come in parts (src/app/intl/messageParts.ts): the home
 * screen's in the entry point, each other part fetched with the first code that shows it. The
 * app registers how each part is fetched (src/app/intl/catalogues.ts); whoever shows a part's
 * messages (a page's loader, a feature's view loaded on demand) asks for it here, so no feature
 * reaches into the app. Where nothing is registered (a test with every message at hand), asking
 * is done at once.
 */
export type LaterMessagePart =
  | 'pages'
  | 'profile'
  | 'sharing'
  | 'localNetwork'
  | 'memory'
  | 'lore'
  | 'illustrate'
  | 'pictures'
  | 'troubles';

type Messages = Record<string, unknown>;
type Fetch = () => Promise<Messages>;

const fetchers: Partial<Record<LaterMessagePart, Fetch>> = {};
const loading: Partial<Record<LaterMessagePart, Promise<void>>> = {};
/** Every later part loaded so far, in one object: a new object at each arrival. */
let loaded: Messages = {};
const listeners = new Set<() => void>();

export function registerMessageParts(parts: Record<LaterMessagePart, Fetch>): void {
  Object.assign(fetchers, parts);
}

/** Fetches the English messages of `part` once; a failed fetch is tried again on the next call. */
export function loadMessages(part: LaterMessagePart): Promise<void> {
  const fetch = fetchers[part];
  if (!fetch) return Promise.resolve();
  loading[part] ??= fetch().then(
    (messages) => {
      loaded = { ...loaded, ...messages };
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      delete loading[part];
      throw error;
    },
  );
  return loading[part];
}

export function subscribeToLaterMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The English messages of every later part loaded so far. */
export const laterMessages = (): Messages => loaded;

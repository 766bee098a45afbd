/**
 * The settings kept between visits (DESIGN.md, State: the only thing redux-persist keeps), in
 * redux-persist's own format, so what earlier builds saved is read back: localStorage
 * 'persist:taleweaver/settings', one JSON object whose fields are each JSON-encoded, with
 * `_persist: {version, rehydrated}`.
 *
 * Not persistReducer and persistStore: their persist/PERSIST action carries functions
 * (`register`, `rehydrate`), so no Redux DevTools export could replay a session from its first
 * action. Here the saved settings come back as one plain event, settings/restored, and each
 * change is written by redux-persist's persistoid from a store subscription.
 */
import type { Store } from '@reduxjs/toolkit';
import { createPersistoid, getStoredState, type PersistConfig, type Storage } from 'redux-persist';
import type { SettingsState } from '../features/settings';

/** A web storage (the page's localStorage) as redux-persist reads and writes it. */
export function persistStorage(web: globalThis.Storage): Storage {
  return {
    getItem: async (key: string) => web.getItem(key),
    setItem: async (key: string, value: string) => web.setItem(key, value),
    removeItem: async (key: string) => web.removeItem(key),
  };
}

const VERSION = 1;
/** What persistReducer wrote beside the fields; kept, so an older build reads the record too. */
const PERSIST_STAMP = { version: VERSION, rehydrated: true };

const persistConfig = (storage: Storage): PersistConfig<SettingsState> => ({
  key: 'taleweaver/settings',
  version: VERSION,
  storage,
});

/**
 * The settings saved by an earlier visit, as stored: every field but redux-persist's stamp
 * (the reducer checks each one). Nothing saved, or a record that is not JSON: none.
 */
export async function readSavedSettings(storage: Storage): Promise<Record<string, unknown>> {
  try {
    const stored = (await getStoredState(persistConfig(storage))) as
      Record<string, unknown> | undefined;
    if (!stored) return {};
    const { _persist: _stamp, ...settings } = stored;
    return settings;
  } catch (error) {
    console.warn('The saved settings could not be read; the defaults are used', error);
    return {};
  }
}

type SettingsStore = Pick<Store<{ settings: SettingsState }>, 'getState' | 'subscribe'>;

/**
 * Writes the settings whenever they change, through redux-persist's persistoid (the same
 * record, written after the current dispatch). Returns what stops it and what writes at once.
 */
export function keepSettings(store: SettingsStore, storage: Storage) {
  const persistoid = createPersistoid(persistConfig(storage));
  let kept = store.getState().settings;
  const unsubscribe = store.subscribe(() => {
    const { settings } = store.getState();
    if (settings === kept) return;
    kept = settings;
    persistoid.update({ ...settings, _persist: PERSIST_STAMP });
  });
  return { stop: unsubscribe, flush: () => persistoid.flush() };
}

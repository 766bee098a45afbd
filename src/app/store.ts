import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  type Middleware,
  type Reducer,
} from '@reduxjs/toolkit';
import createSagaMiddleware, { type Task } from 'redux-saga';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  PURGE,
  REGISTER,
  REHYDRATE,
  persistReducer,
  persistStore,
  type Persistor,
  type Storage,
} from 'redux-persist';
import type { BackendApi } from '../api/baseApi';
import type { BackendProvider } from '../api/backend';
import { settingsSlice } from '../features/settings';
import { gameSlice, playerStatsSlice } from '../features/game';
import { providerSessionSlice } from '../features/llm';
import { storiesSlice } from '../features/stories/storiesSlice';
import { walletSlice } from '../features/wallet';
import { maskAction, maskSecrets } from './devtools';
import { rootSaga } from './rootSaga';

/** localStorage, looked up when used: tests and the server-side build have none. */
const localStorageAdapter: Storage = {
  getItem: async (key: string) => window.localStorage.getItem(key),
  setItem: async (key: string, value: string) => window.localStorage.setItem(key, value),
  removeItem: async (key: string) => window.localStorage.removeItem(key),
};

/**
 * Only the settings survive a reload (DESIGN.md, State); story data is saved by the stories
 * feature. Without persistStore (tests) the wrapper passes state straight through. Its
 * `_persist` bookkeeping is left out of the state's type.
 */
const settingsReducer = persistReducer(
  { key: 'taleweaver/settings', version: 1, storage: localStorageAdapter },
  settingsSlice.reducer,
) as unknown as typeof settingsSlice.reducer;

/** Parts of the state that arrive with lazily loaded code (the backend API). */
export interface LazyLoadedSlices {
  api: ReturnType<BackendApi['reducer']>;
}

export const rootReducer = combineSlices(
  { settings: settingsReducer },
  walletSlice,
  gameSlice,
  playerStatsSlice,
  storiesSlice,
  providerSessionSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;

/** Middleware of lazily loaded code, added to every store when that code arrives. */
const lazyMiddleware = createDynamicMiddleware<RootState>();

/**
 * Plugs the backend API (RTK Query) into the stores. Called by the routes that need it as
 * their chunk loads, so the home screen never downloads RTK Query or supabase-js.
 */
export function injectBackendApi(api: BackendApi): void {
  rootReducer.inject({ reducerPath: api.reducerPath, reducer: api.reducer as Reducer });
  lazyMiddleware.addMiddleware(api.middleware as Middleware);
}

/** What thunks and RTK Query endpoints receive as `extra`: clients, never state. */
export interface ThunkExtra {
  backend: BackendProvider;
}

export interface StoreOptions {
  /** Restore and keep the settings in localStorage (the browser app); off in tests. */
  persist?: boolean;
  /** The backend clients, made on first use; tests point them at a test server. */
  backend?: BackendProvider;
  /** Further clients the sagas use (wallet provider, model client, ...). */
  sagaContext?: Record<string, unknown>;
}

const noBackend: BackendProvider = () =>
  Promise.reject(new Error('This store was made without a backend (makeStore options.backend)'));

export function makeStore(preloadedState?: Partial<RootState>, options: StoreOptions = {}) {
  const backend = options.backend ?? noBackend;
  const sagaMiddleware = createSagaMiddleware({ context: { backend, ...options.sagaContext } });
  const extra: ThunkExtra = { backend };
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        thunk: { extraArgument: extra },
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(sagaMiddleware, lazyMiddleware.middleware),
    devTools: process.env.NODE_ENV !== 'production' && {
      name: 'Taleweaver',
      actionSanitizer: (action) => maskAction(action),
      stateSanitizer: (state) => maskSecrets(state),
    },
  });
  let persistor: Persistor | undefined;
  let sagas: Task | undefined;
  if (options.persist) {
    // The sagas start once the saved settings are back.
    persistor = persistStore(store, null, () => {
      sagas = sagaMiddleware.run(rootSaga);
    });
  } else {
    sagas = sagaMiddleware.run(rootSaga);
  }
  /** Ends the long-running flows (the wallet check's timer, ...): a test's last step. */
  const stop = () => sagas?.cancel();
  return Object.assign(store, { persistor, stop });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

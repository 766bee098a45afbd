import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  type Middleware,
  type Reducer,
} from '@reduxjs/toolkit';
import createSagaMiddleware, { type Task } from 'redux-saga';
import type { Storage } from 'redux-persist';
import type { BackendApi } from '../api/baseApi';
import type { BackendProvider } from '../api/backend';
import { settingsSlice } from '../features/settings';
import { gameSlice } from '../features/game';
import { providerSessionSlice } from '../features/llm';
import { storiesSlice } from '../features/stories/storiesSlice';
import type { PicturesState } from '../features/pictures';
import { walletSessionAccessor, walletSlice, type WalletSessionAccessor } from '../features/wallet';
import { devToolsOptions, streamShown } from './devtools';
import { rootSaga } from './rootSaga';
import { withDefaults, type SagaContext } from './sagaContext';
import { keepSettings, persistStorage, readSavedSettings } from './savedSettings';

/**
 * Parts of the state that arrive with lazily loaded code: the backend API, and the story's
 * pictures (issue 41), whose slice comes with their flows (injectSlice).
 */
export interface LazyLoadedSlices {
  api: ReturnType<BackendApi['reducer']>;
  pictures: PicturesState;
}

export const rootReducer = combineSlices(
  settingsSlice,
  walletSlice,
  gameSlice,
  storiesSlice,
  providerSessionSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;

/**
 * Plugs a feature's slice that comes with its lazily loaded code into the stores (the saga
 * context's injectSlice, which the feature's flows call as they start).
 */
export function injectSlice(slice: { reducerPath: string; reducer: Reducer }): void {
  rootReducer.inject(slice as Parameters<typeof rootReducer.inject>[0]);
}

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
  /** The verified wallet session when a request is sent (the wallet slice's). */
  walletSession: WalletSessionAccessor;
}

export type { SagaContext };

export interface StoreOptions {
  preloadedState?: Partial<RootState>;
  /**
   * The clients the sagas use (wallet environment, model client, storage, ...); what is left
   * out is the browser's own (src/app/sagaContext.ts, contextDefaults).
   */
  context?: Partial<SagaContext>;
  /**
   * Restore the saved settings, and keep them, in `context.storage` (else the page's
   * localStorage): the browser app. The flows start once the settings are back.
   */
  persist?: boolean;
  /** The backend clients, made on first use; tests point them at a test server. */
  backend?: BackendProvider;
}

const noBackend: BackendProvider = () =>
  Promise.reject(new Error('This store was made without a backend (makeStore options.backend)'));

/**
 * Redux DevTools: in development and tests, and in a production build made with
 * `REDUX_DEVTOOLS=on npm run build` (the e2e test's); an ordinary production build leaves them,
 * and their options, out.
 */
const DEVTOOLS_BUILT = process.env.NODE_ENV !== 'production' || process.env.REDUX_DEVTOOLS === 'on';

/** The page's localStorage, if there is one the page may read. */
function pageStorage(): globalThis.Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** Where the settings are kept: the context's storage, else the page's localStorage. */
function settingsStorage(context: Partial<SagaContext> | undefined): Storage {
  const web = context?.storage ?? pageStorage();
  if (!web) {
    throw new Error(
      'makeStore({ persist: true }) needs context.storage or a page with localStorage',
    );
  }
  return persistStorage(web);
}

export function makeStore({ preloadedState, context, persist, backend }: StoreOptions = {}) {
  const backendProvider = backend ?? context?.backend ?? noBackend;
  // Asked only once the store below exists: when a flow or a request sends.
  const walletSession: WalletSessionAccessor =
    context?.walletSession ?? walletSessionAccessor((): RootState => store.getState());
  const sagaMiddleware = createSagaMiddleware({
    context: {
      injectSlice,
      ...withDefaults(context),
      backend: backendProvider,
      walletSession,
    },
  });
  const extra: ThunkExtra = { backend: backendProvider, walletSession };
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    // RTK's serializability and immutability checks stay on (development and tests): every
    // action is plain data, so a DevTools export replays from the first one.
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: extra } }).concat(
        sagaMiddleware,
        lazyMiddleware.middleware,
      ),
    devTools: DEVTOOLS_BUILT && devToolsOptions({ showStream: streamShown(pageStorage()) }),
  });

  let sagas: Task | undefined;
  let stopped = false;
  let restored = !persist;
  let stopKeeping = () => {};
  const startFlows = () => {
    if (!stopped) sagas = sagaMiddleware.run(rootSaga);
  };
  if (!persist) startFlows();
  const storage = persist ? settingsStorage(context) : null;
  const ready: Promise<void> = storage
    ? readSavedSettings(storage).then((saved) => {
        if (stopped) return;
        restored = true;
        store.dispatch(settingsSlice.actions.restored(saved));
        stopKeeping = keepSettings(store, storage).stop;
        startFlows();
      })
    : Promise.resolve();

  return Object.assign(store, {
    /** Resolves once the saved settings are back and the flows run. */
    ready,
    /** Whether the saved settings are back (always, without `persist`). */
    isRestored: () => restored,
    /** Ends the long-running flows (the wallet check's timer, ...): a test's last step. */
    stop: () => {
      stopped = true;
      stopKeeping();
      sagas?.cancel();
    },
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

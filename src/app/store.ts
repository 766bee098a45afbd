import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
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
} from 'redux-persist';
import createWebStorage from 'redux-persist/lib/storage/createWebStorage';
import { settingsSlice } from '../features/settings';
import { maskSecrets } from './devtools';
import { rootSaga } from './rootSaga';

/** Only the settings survive a reload; story data is saved by the stories feature. */
const settingsPersistConfig = () => ({
  key: 'taleweaver/settings',
  version: 1,
  // Made on demand: only the browser app persists, and tests have no localStorage.
  storage: createWebStorage('local'),
});

const reducers = { [settingsSlice.reducerPath]: settingsSlice.reducer };
const rootReducer = combineReducers(reducers);
export type RootState = ReturnType<typeof rootReducer>;

export interface StoreOptions {
  /** Restore and keep the settings in localStorage (the browser app); off in tests. */
  persist?: boolean;
  /** Clients the sagas use (wallet provider, model client, ...), replaceable in tests. */
  sagaContext?: Record<string, unknown>;
}

export function makeStore(preloadedState?: Partial<RootState>, options: StoreOptions = {}) {
  const sagaMiddleware = createSagaMiddleware({ context: options.sagaContext ?? {} });
  const reducer = options.persist
    ? combineReducers({
        ...reducers,
        settings: persistReducer(settingsPersistConfig(), settingsSlice.reducer),
      })
    : rootReducer;
  const store = configureStore({
    reducer: reducer as typeof rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(sagaMiddleware),
    devTools: process.env.NODE_ENV !== 'production' && {
      name: 'Taleweaver',
      actionSanitizer: (action) => maskSecrets(action),
      stateSanitizer: (state) => maskSecrets(state),
    },
  });
  let persistor: Persistor | undefined;
  if (options.persist) {
    persistor = persistStore(store, null, () => sagaMiddleware.run(rootSaga));
  } else {
    sagaMiddleware.run(rootSaga);
  }
  return Object.assign(store, { persistor });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

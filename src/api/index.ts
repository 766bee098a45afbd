export { baseApi, backendOf, fromSupabase, toBackendError } from './baseApi';
export type { BackendApi, BackendError } from './baseApi';
export { DEFAULT_PUBLISHABLE_KEY } from './backend';
export type {
  Backend,
  BackendClient,
  BackendLocation,
  BackendProvider,
  WalletSession,
} from './backend';
export type { BackendContext } from './sagaContext';

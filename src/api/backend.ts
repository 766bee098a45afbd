import type { FunctionsClient } from '@supabase/functions-js';
import type { PostgrestClient } from '@supabase/postgrest-js';

/** A verified wallet's credentials (SPEC.md section 3, local storage keys). */
export interface WalletSession {
  /** Lowercase wallet address. */
  address: string;
  /** The token the server issued at sign-in. */
  token: string;
}

/**
 * The backend's clients (SPEC.md section 6): the default anonymous client, and per verified
 * wallet an authenticated one sending its token and address.
 */
export interface Backend {
  anon: BackendClient;
  forWallet(session: WalletSession): BackendClient;
}

/** What the app asks of the backend: tables and functions (PostgREST), and edge functions. */
export interface BackendClient {
  from: (relation: string) => ReturnType<PostgrestClient['from']>;
  rpc: (fn: string, args?: Record<string, unknown>) => ReturnType<PostgrestClient['rpc']>;
  functions: FunctionsClient;
}

/** Makes (once) and returns the clients; they are only downloaded when first needed. */
export type BackendProvider = () => Promise<Backend>;

/** Where the backend is: the build's SUPABASE_URL, else the server that served the page. */
export interface BackendLocation {
  url: string;
  publishableKey: string;
}

// The backend's public key by default: the server accepts the same one (common/).
export { DEFAULT_PUBLISHABLE_KEY } from '../../common/publishableKey';

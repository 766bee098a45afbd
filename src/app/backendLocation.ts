import { DEFAULT_PUBLISHABLE_KEY, type BackendProvider } from '../api/backend';

/**
 * The browser's backend: the build's SUPABASE_URL (a hosted Supabase project) or, by default,
 * the local server that served this page. supabase-js arrives with the first request.
 */
export function browserBackend(): BackendProvider {
  let backend: ReturnType<BackendProvider> | undefined;
  return () => {
    backend ??= import(/* webpackChunkName: "backend" */ '../api/supabaseBackend').then((m) =>
      m.createBackend({
        url: process.env.SUPABASE_URL || window.location.origin,
        publishableKey: process.env.SUPABASE_PUBLISHABLE_KEY || DEFAULT_PUBLISHABLE_KEY,
      }),
    );
    return backend;
  };
}

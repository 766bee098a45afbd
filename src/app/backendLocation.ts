import { DEFAULT_ANON_KEY, type BackendProvider } from '../api/backend';

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
        anonKey: process.env.SUPABASE_ANON_KEY || DEFAULT_ANON_KEY,
      }),
    );
    return backend;
  };
}

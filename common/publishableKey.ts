/**
 * The public key every backend request names in its apikey header (a Supabase project's
 * publishable key) when the build is not given SUPABASE_PUBLISHABLE_KEY. Not a secret: it
 * grants exactly what the anon role may do. The local server accepts the same default, so the
 * page (src/api) and the server (server/config.ts) read it from here.
 */
export const DEFAULT_PUBLISHABLE_KEY = 'sb_publishable_taleweaver_local';

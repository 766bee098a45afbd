import { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Backend, BackendClient, BackendLocation, WalletSession } from './backend';

/** The header SPEC.md section 6 names; the server's row-level security reads only the token. */
export const WALLET_ADDRESS_HEADER = 'x-wallet-address';

/**
 * The two kinds of backend client the app uses; authenticated ones are kept per token. They
 * are supabase-js's own PostgREST and Functions clients, given the public schema and the
 * headers Supabase asks for: the publishable key in apikey, and in Authorization a wallet's
 * token and nothing else (a gateway refuses a key there: it is not a JWT). X-Client-Info names
 * this app rather than supabase-js. They come without the auth, realtime and storage clients
 * the app never uses: 7 KB of JavaScript instead of 52 (npm run bench, budget 1).
 */
export function createBackend(location: BackendLocation): Backend {
  const base = location.url.replace(/\/+$/, '');
  const client = (headers: Record<string, string>): BackendClient => {
    const all = {
      apikey: location.publishableKey,
      'X-Client-Info': 'taleweaver',
      ...headers,
    };
    const rest = new PostgrestClient(`${base}/rest/v1`, { headers: all, schema: 'public' });
    return {
      from: (relation: string) => rest.from(relation),
      rpc: (fn: string, args?: Record<string, unknown>) => rest.rpc(fn, args),
      functions: new FunctionsClient(`${base}/functions/v1`, { headers: all }),
    };
  };
  const anon = client({});
  const byToken = new Map<string, BackendClient>();
  return {
    anon,
    forWallet({ address, token }: WalletSession) {
      let authenticated = byToken.get(token);
      if (!authenticated) {
        authenticated = client({
          Authorization: `Bearer ${token}`,
          [WALLET_ADDRESS_HEADER]: address,
        });
        byToken.set(token, authenticated);
      }
      return authenticated;
    },
  };
}

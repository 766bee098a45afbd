import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Backend, BackendLocation, WalletSession } from './backend';

/** The header SPEC.md section 6 names; the server's row-level security reads only the token. */
export const WALLET_ADDRESS_HEADER = 'x-wallet-address';

type RealtimeTransport = NonNullable<
  NonNullable<Parameters<typeof createClient>[2]>['realtime']
>['transport'];

export interface BackendExtras {
  /** For tests in Node 20: a WebSocket implementation for supabase-js's realtime client. */
  realtimeTransport?: RealtimeTransport;
}

/** The two supabase-js clients the app uses; authenticated ones are kept per token. */
export function createBackend(location: BackendLocation, extras: BackendExtras = {}): Backend {
  const client = (headers: Record<string, string>): SupabaseClient =>
    createClient(location.url, location.anonKey, {
      // Sessions are the wallet feature's business; supabase-js keeps none of its own.
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { headers },
      ...(extras.realtimeTransport && { realtime: { transport: extras.realtimeTransport } }),
    });
  const anon = client({});
  const byToken = new Map<string, SupabaseClient>();
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

/**
 * The wallet-login Edge Function (Supabase's Edge Runtime, Deno 2.1): Sign-In with Ethereum,
 * answered with a token the project trusts. `verify_jwt = false` in supabase/config.toml: the
 * caller has no session yet. Its secrets (README, "Deploying to Supabase"):
 *   WALLET_LOGIN_SIGNING_JWK  the private JWK of `supabase gen signing-key --algorithm ES256`,
 *                             imported into the project as a signing key
 *   SITE_URL                  the site's origin(s), comma-separated
 *   CHAIN_RPC_URLS            `<chainId>=<url>` pairs where smart accounts' signatures are
 *                             checked (optional: without it, only keys' signatures sign in)
 * and what Supabase provides: SUPABASE_URL, SUPABASE_SECRET_KEYS (or the legacy
 * SUPABASE_SERVICE_ROLE_KEY).
 */
import { walletLoginHandler } from '../_shared/walletLogin.ts';
import { parseChainRpcUrls, signatureVerifier } from '../_shared/walletSignature.ts';
import { parseSigningJwk, walletTokenSigner } from '../_shared/walletToken.ts';
import {
  projectSecretKey,
  restNonceSpender,
  restSignInAdmission,
  siteOrigins,
} from '../_shared/supabaseProject.ts';

function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set (supabase secrets set ${name}=...)`);
  return value;
}

async function configuredHandler(): Promise<(request: Request) => Promise<Response>> {
  const signer = await walletTokenSigner(parseSigningJwk(required('WALLET_LOGIN_SIGNING_JWK')));
  const secretKey = projectSecretKey((name) => Deno.env.get(name));
  if (!secretKey) throw new Error('SUPABASE_SECRET_KEYS (or SUPABASE_SERVICE_ROLE_KEY) is not set');
  const origins = siteOrigins(required('SITE_URL'));
  const supabaseUrl = required('SUPABASE_URL');
  const endpoints = parseChainRpcUrls(Deno.env.get('CHAIN_RPC_URLS'));
  return walletLoginHandler({
    siteOrigins: () => origins,
    admitSignIn: restSignInAdmission(supabaseUrl, secretKey),
    spendNonce: restNonceSpender(supabaseUrl, secretKey),
    verifySignature: signatureVerifier({ endpoints }),
    issueToken: (walletAddress) => signer.issue(walletAddress),
    log: (level, event, fields) => console[level](JSON.stringify({ event, ...fields })),
  });
}

/**
 * A function that is not configured answers 500 on every call, rather than failing to boot, and
 * logs why; the caller is not told which secret is missing.
 */
function misconfigured(reason: string) {
  console.error(JSON.stringify({ event: 'wallet-login is not configured', reason }));
  return () =>
    Promise.resolve(
      Response.json(
        {
          code: 'not_configured',
          message: 'Sign-in is not set up on the server yet; its log says why',
          details: null,
          hint: null,
        },
        { status: 500 },
      ),
    );
}

const handler = await configuredHandler().catch((error: unknown) =>
  misconfigured(error instanceof Error ? error.message : String(error)),
);

Deno.serve(handler);

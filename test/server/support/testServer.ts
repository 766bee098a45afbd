/**
 * A real server (the REST subset and wallet-login) on a free port over a fresh database, and the
 * clients tests drive it with: supabase-js itself, as the app uses it, and real wallets.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SiweMessage } from 'siwe';
import { TokenAuthority, newServerKeys } from '../../../server/auth';
import { buildServer } from '../../../server/app';
import { readConfig } from '../../../server/config';
import { migrate, type Database } from '../../../server/db';
import { SharedReads } from '../../../server/sharedReads';
import { DEFAULT_PUBLISHABLE_KEY, type Backend } from '../../../src/api';
import { createBackend } from '../../../src/api/supabaseBackend';
import type { TestBackend } from './databases';

export interface TestServer {
  url: string;
  db: Database;
  app: FastifyInstance;
  tokens: TokenAuthority;
  backend: Backend;
  close(): Promise<void>;
}

export async function startTestServer(
  database: TestBackend,
  env: NodeJS.ProcessEnv = {},
): Promise<TestServer> {
  const { db, drop } = await database.open();
  await migrate(db);
  const config = readConfig({ PORT: '0', SERVE_APP: 'false', LOG_LEVEL: 'silent', ...env });
  const tokens = await TokenAuthority.create(newServerKeys(config.publishableKey));
  // Shared reads stay fresh for a minute here, so a test sees new rows only when a write
  // invalidates them, never because an answer happened to expire.
  const sharedReads = new SharedReads<Record<string, unknown>[]>(undefined, 60_000);
  const app = await buildServer(config, { db, tokens, sharedReads });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://localhost:${port}`;
  const backend = createBackend({ url, publishableKey: DEFAULT_PUBLISHABLE_KEY });
  return {
    url,
    db,
    app,
    tokens,
    backend,
    async close() {
      const closing = app.close();
      // A store stopped in the middle of a request leaves it open, and Fastify waits for every
      // request to finish: the suite is over, so what is still open is cut.
      app.server.closeAllConnections();
      await closing;
      await drop();
    },
  };
}

export interface SignInOptions {
  /** Override parts of the message (another domain, an old issued-at, ...). */
  message?: Partial<SiweMessage>;
  /** Sign with this instead of the wallet itself. */
  signer?: MessageSigner;
}

/**
 * Whatever signs a message for an address: a key (an ethers wallet), or a smart account whose
 * signature is its owner's, perhaps wrapped (test/fixtures/chain/smartAccount.ts).
 */
export interface MessageSigner {
  readonly address: string;
  signMessage(message: string): Promise<string>;
}

/**
 * A running backend: its URL and the supabase-js clients talking to it, and where its functions
 * are served when that is elsewhere (`npm run functions:serve`).
 */
export type BackendTarget = Pick<TestServer, 'url' | 'backend'> & { functionsUrl?: string };

/** Where the target's Edge Functions answer: /functions/v1 on its own URL, or elsewhere. */
export const functionsBase = (target: BackendTarget) =>
  `${target.functionsUrl ?? target.url}/functions/v1`;

/** The Sign-In with Ethereum message the browser would build for this server. */
export async function signedLogin(
  server: BackendTarget,
  wallet: MessageSigner,
  options: SignInOptions = {},
) {
  const { data, error } = await server.backend.anon.rpc('create_user_if_not_exists', {
    p_wallet_address: wallet.address.toLowerCase(),
  });
  if (error) throw new Error(`nonce request failed: ${error.message}`);
  const nonce = (data as { nonce: string }[])[0]?.nonce ?? '';
  const now = new Date();
  const message = new SiweMessage({
    domain: new URL(server.url).host,
    address: wallet.address,
    statement: 'Sign in to Taleweaver.',
    uri: server.url,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: now.toISOString(),
    expirationTime: new Date(now.getTime() + 10 * 60 * 1000).toISOString(),
    ...options.message,
  }).prepareMessage();
  const signature = await (options.signer ?? wallet).signMessage(message);
  return { message, signature, nonce };
}

export async function postLogin(server: BackendTarget, body: unknown) {
  const response = await fetch(`${functionsBase(server)}/wallet-login`, {
    method: 'POST',
    headers: { apikey: DEFAULT_PUBLISHABLE_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Signs in for real and returns the token the server issued. */
export async function signIn(server: BackendTarget, wallet: MessageSigner): Promise<string> {
  const { status, body } = await postLogin(server, await signedLogin(server, wallet));
  if (status !== 200) throw new Error(`login failed (${status}): ${JSON.stringify(body)}`);
  return body.access_token as string;
}

/** A port nothing listens on now, for a server that must know another's address up front. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return address.port;
}

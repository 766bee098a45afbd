/**
 * /functions/v1/*: the Edge Functions, as the project's gateway routes them. By default the
 * local server answers wallet-login itself with the very module the Edge Function serves
 * (supabase/functions/_shared/walletLogin.ts); with FUNCTIONS_URL it forwards every function
 * call there instead, to the functions served under Deno (npm run functions:serve).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { walletLoginHandler } from '../supabase/functions/_shared/walletLogin';
import { signatureVerifier } from '../supabase/functions/_shared/walletSignature';
import type { TokenAuthority } from './auth';
import { type Database, type RequestSettings, withClaims } from './db';
import { setForwardedFor } from './gateway';
import { fromDatabaseError } from './restError';
import { type WebHandler, contentHeaders, toWebRequest } from './webRequests';

const FUNCTION_ROUTE = '/functions/v1/*';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors reads it: false leaves the route's CORS to the route itself. */
    cors?: false;
  }
}

export interface FunctionsOptions {
  db: Database;
  tokens: TokenAuthority;
  /** Set in the transactions the functions run here (the server's sign-in limit). */
  settings: RequestSettings;
  siteOrigins(): string[];
  /** Where smart accounts' signatures are checked, by chain id (CHAIN_RPC_URLS). */
  chainRpcUrls: ReadonlyMap<number, string>;
  /** Where `npm run functions:serve` listens, when the server should forward there. */
  functionsUrl: string | null;
}

export async function registerFunctions(
  app: FastifyInstance,
  { db, tokens, settings, siteOrigins, chainRpcUrls, functionsUrl }: FunctionsOptions,
): Promise<void> {
  const handler = functionsUrl
    ? forwardTo(functionsUrl, app)
    : localFunctions({
        'wallet-login': walletLoginHandler({
          siteOrigins,
          // The same SQL function the Edge Function reaches through the REST API, and its 429
          // as PostgREST would answer it.
          admitSignIn: async (callerHeaders) => {
            try {
              await withClaims(
                db,
                { role: 'service_role' },
                (client) => client.query('select public.admit_sign_in($1)', [callerHeaders]),
                settings,
              );
              return null;
            } catch (error) {
              const answer = fromDatabaseError(error, false);
              if (answer.status !== 429) throw error;
              return {
                status: answer.status,
                body: answer.toJSON(),
                retryAfter: answer.headers['Retry-After'] ?? null,
              };
            }
          },
          verifySignature: signatureVerifier({ endpoints: chainRpcUrls }),
          issueToken: (walletAddress) => tokens.issueWalletToken(walletAddress),
          // The same SQL function the Edge Function reaches through the REST API.
          spendNonce: ({ walletAddress, nonce, maxAgeSeconds }) =>
            withClaims(db, { role: 'service_role' }, async (client) => {
              const { rows } = await client.query<{ spent: boolean }>(
                'select spent from public.spend_sign_in_nonce($1, $2, $3)',
                [walletAddress, nonce, maxAgeSeconds],
              );
              return rows[0]?.spent === true;
            }),
          log: (level, event, fields) => app.log[level](fields, event),
        }),
      });

  await app.register(async (scope) => {
    // The function reads its own body (and limits it): Fastify leaves the stream unread, and
    // passes it on as it arrives when forwarding.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const answer = async (request: FastifyRequest, reply: FastifyReply) => {
      const webRequest = toWebRequest(request.raw, 'http://localhost');
      // As Supabase's gateway does, whether the function answers here or under Deno.
      setForwardedFor(webRequest.headers, request.ip);
      const response = await handler(webRequest);
      reply.code(response.status).headers(contentHeaders(response));
      // Through Fastify's reply, so the security headers every answer carries are added.
      return reply.send(Buffer.from(await response.arrayBuffer()));
    };
    // The functions answer CORS themselves, for their own origins: the server's CORS stays out.
    scope.route({
      method: ['POST', 'OPTIONS'],
      url: FUNCTION_ROUTE,
      handler: answer,
      config: { cors: false },
    });
  });
}

/** Functions answered in this process, by name. */
function localFunctions(functions: Record<string, WebHandler>): WebHandler {
  return async (request) => {
    const name = new URL(request.url).pathname.split('/')[3] ?? '';
    const handler = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!handler) {
      return Response.json(
        { code: 'NOT_FOUND', message: `No function named '${name}'` },
        { status: 404 },
      );
    }
    return handler(request);
  };
}

/** Every call forwarded to the functions server, or a clear 502 when it does not answer. */
function forwardTo(functionsUrl: string, app: FastifyInstance): WebHandler {
  const base = new URL(functionsUrl);
  return async (request) => {
    const url = new URL(request.url);
    const target = new URL(url.pathname + url.search, base);
    try {
      return await fetch(new Request(target, request), { redirect: 'manual' });
    } catch (error) {
      app.log.error({ error: String(error) }, `functions server at ${base.origin} did not answer`);
      return Response.json(
        {
          code: 'functions_unavailable',
          message: `The functions server at ${base.origin} did not answer: run npm run functions:serve`,
        },
        { status: 502 },
      );
    }
  };
}

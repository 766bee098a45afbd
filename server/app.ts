import fs from 'node:fs';
import path from 'node:path';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import type { TokenAuthority } from './auth';
import { fastifyTrustProxy, type ServerConfig } from './config';
import type { Database } from './db';
import { registerFunctions } from './functions';
import { registerRest } from './rest';
import { RestError } from './restError';
import type { SharedReads } from './sharedReads';
import { isSourceMap, registerSecurityHeaders, servesHttps } from './securityHeaders';
import {
  PICTURE_CACHE_CONTROL,
  PageTemplate,
  readOpeningPicture,
  readStoryPreview,
  storyIdOfPath,
  withStoryTags,
} from './storyPage';

/** Paths that belong to the backend API, never to the SPA's client-side routes. */
const API_PREFIXES = ['/rest/', '/functions/', '/assets/'];
/** Request bodies are small JSON documents; anything bigger is refused (413). */
export const BODY_LIMIT_BYTES = 32 * 1024;

export interface ServerParts {
  db: Database;
  tokens: TokenAuthority;
  /** The shared leaderboard reads (server/sharedReads.ts); tests give theirs a longer age. */
  sharedReads?: SharedReads<Record<string, unknown>[]>;
}

/**
 * The local stand-in for the hosted backend (DESIGN.md, The pieces): the PostgREST subset,
 * the Edge Functions (wallet-login, or a forward to them under Deno), and the built SPA with
 * its client-side routes.
 */
export async function buildServer(
  config: ServerConfig,
  { db, tokens, sharedReads }: ServerParts,
): Promise<FastifyInstance> {
  const { distDir } = config;
  if (distDir !== null && !fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`No built app at ${distDir}: run 'npm run build' first.`);
  }

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Tokens, keys and signatures never reach the logs.
      redact: ['req.headers.authorization', 'req.headers.apikey', 'req.body'],
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind a proxy, request.ip (the sign-in limit's key, the logs) is the client's address.
    trustProxy: fastifyTrustProxy(config.trustProxy),
  });

  // First, so that every response carries them, errors from the plugins below included.
  registerSecurityHeaders(app, {
    backendOrigin: config.backendOrigin,
    connectSources: config.connectSources,
    https: servesHttps(config.siteUrls),
  });

  // CORS as Supabase answers it: any origin, the headers supabase-js sends.
  await app.register(fastifyCors, {
    origin: '*',
    methods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
    allowedHeaders: [
      'authorization',
      'apikey',
      'content-type',
      'prefer',
      'accept',
      'accept-profile',
      'content-profile',
      'x-client-info',
      'x-wallet-address',
    ],
    exposedHeaders: ['content-range'],
    maxAge: 86_400,
  });

  app.setErrorHandler((error: FastifyError | RestError, request, reply) => {
    if (error instanceof RestError) {
      return reply.code(error.status).headers(error.headers).send(error.toJSON());
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error(error);
    return reply.code(status).send({
      code: error.code ?? 'PGRST000',
      message: status >= 500 ? 'Internal server error' : error.message,
      details: null,
      hint: null,
    });
  });

  app.get('/health', async () => ({ status: 'ok' }));
  // Sign-in is limited in the database, here as on Supabase (migration
  // 20261126130000_sign_in_limits.sql); the server hands it its own number.
  const signInSettings = { 'taleweaver.sign_in_rate_limit': String(config.signInRateLimit) };
  // So are cloud saves' writes (migration 20261127000000_cloud_stories.sql).
  registerRest(app, db, tokens, {
    sharedReads,
    settings: {
      ...signInSettings,
      'taleweaver.story_write_rate_limit': String(config.storyWriteRateLimit),
    },
  });
  await registerFunctions(app, {
    db,
    tokens,
    settings: signInSettings,
    siteOrigins: () => config.siteUrls ?? ownOrigins(app, config.port),
    chainRpcUrls: config.chainRpcUrls,
    functionsUrl: config.functionsUrl,
  });
  // A published story's opening picture, its page's Open Graph image (server/storyPage.ts).
  app.get<{ Params: { id: string } }>('/story/:id/opening-picture', async (request, reply) => {
    const picture = await readOpeningPicture(db, request.params.id);
    if (picture === null) {
      return reply.code(404).send({ message: 'No published story has an opening picture here' });
    }
    return reply
      .type(picture.mediaType)
      .header('Cache-Control', PICTURE_CACHE_CONTROL)
      .send(picture.bytes);
  });
  if (distDir !== null) await serveApp(app, distDir, { db, siteUrls: config.siteUrls });
  return app;
}

/** The path as the router matches it (percent-decoded), so an encoded path is limited too. */
function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** This server's own origins, on the port it actually listens on. */
function ownOrigins(app: FastifyInstance, configuredPort: number): string[] {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : configuredPort;
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

async function serveApp(
  app: FastifyInstance,
  distDir: string,
  { db, siteUrls }: { db: Database; siteUrls: string[] | null },
): Promise<void> {
  const template = PageTemplate.of(distDir);
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    // The build writes Brotli and gzip files beside each asset (webpack.config.ts); the one the
    // browser accepts is sent, with Vary: Accept-Encoding, and the file itself otherwise.
    preCompressed: true,
    // Nor the static hosts' header file: this server sends those headers itself.
    allowedPath: (pathName) => !isSourceMap(pathName) && pathName !== '/_headers',
    setHeaders(res, filePath) {
      // Hashed assets never change; the page itself is always revalidated.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader(
        'Cache-Control',
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // A cache in between keeps each encoding apart, the file itself included.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });

  // Client-side routes (/game, /profile, /leaderboard, /story/<id>, and unknown paths that the
  // app redirects to /) all get the SPA's page; a published story's with its Open Graph tags.
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      !isSourceMap(decodedPath(request.url)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (!isPage) {
      return reply.code(404).send({ message: `No route for ${request.method} ${request.url}` });
    }
    const storyId = storyIdOfPath(decodedPath(request.url));
    if (storyId !== null) return storyPage(request, reply, storyId);
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });

  /**
   * /story/<id>: a published story's page carries its Open Graph tags. An id that is no
   * published story's (unknown, taken down, malformed) gets the plain page with 404: the SPA
   * still shows its "not published" message, and crawlers and link previews learn the page is
   * gone. When the database cannot answer, the plain page goes out as usual (200), and the
   * SPA asks for the story itself.
   */
  async function storyPage(request: FastifyRequest, reply: FastifyReply, id: string) {
    reply.header('Cache-Control', 'no-cache');
    let story: Awaited<ReturnType<typeof readStoryPreview>>;
    try {
      story = await readStoryPreview(db, id);
    } catch (error) {
      request.log.warn({ err: error }, 'The published story could not be read for its page');
      return reply.sendFile('index.html');
    }
    if (story === null) return reply.code(404).sendFile('index.html');
    const origin = siteUrls?.[0] ?? `${request.protocol}://${request.host}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(withStoryTags(await template.html(), story, origin));
  }
}

import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ServerConfig } from './config';

/** Paths that belong to the backend API, never to the SPA's client-side routes. */
const API_PREFIXES = ['/rest/', '/functions/', '/assets/'];

/**
 * The local stand-in for the hosted backend (DESIGN.md, The pieces): it serves the built SPA
 * with its client-side routes, and the backend endpoints as later features add them.
 */
export async function buildServer(config: ServerConfig): Promise<FastifyInstance> {
  const { distDir } = config;
  if (distDir !== null && !fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`No built app at ${distDir}: run 'npm run build' first.`);
  }

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Tokens and keys never reach the logs.
      redact: ['req.headers.authorization', 'req.headers.apikey'],
    },
    bodyLimit: 64 * 1024,
  });

  app.get('/health', async () => ({ status: 'ok' }));

  if (distDir !== null) await serveApp(app, distDir);
  return app;
}

async function serveApp(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      // Hashed assets never change; the page itself is always revalidated.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader(
        'Cache-Control',
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  // Client-side routes (/game, /profile, /leaderboard, and unknown paths that the app
  // redirects to /) all get the SPA's page.
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (!isPage) {
      return reply.code(404).send({ message: `No route for ${request.method} ${request.url}` });
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}

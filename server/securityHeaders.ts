import type { FastifyInstance } from 'fastify';
import {
  LOOPBACK_CONNECT_SOURCES,
  connectOriginsOfCookies,
  presetConnectOrigins,
} from '../src/features/llm/connectPolicy';

/**
 * The page keeps the player's API key in localStorage, so what may run in it and where it may
 * send data is pinned down: scripts, styles and fonts only from this server (the build has no
 * inline script or style), images from here or data: URLs (the icons wallets announce
 * themselves with, EIP-6963), and requests only to this server, the hosted backend the build
 * names, the presets' providers, a local model server, and the player's own Custom or Local
 * server named in the `taleweaver-connect` cookie (how and why: src/features/llm/connectPolicy.ts).
 * The page cannot be framed, and nothing else can be embedded or a form posted elsewhere.
 */
export function contentSecurityPolicy(connectSources: readonly string[]): string {
  const directives: Record<string, readonly string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'font-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...new Set(connectSources)],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

export interface SecurityHeaderOptions {
  /** The hosted backend the build talks to (SUPABASE_URL), when it is not this server. */
  backendOrigin: string | null;
}

/**
 * Sends the policy and its companions with every response: the page, assets, API answers and
 * errors (404, 413, 429, 500) alike, since onSend runs for each of them.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  { backendOrigin }: SecurityHeaderOptions,
): void {
  const fixedSources = [
    ...(backendOrigin ? [backendOrigin] : []),
    ...presetConnectOrigins(),
    ...LOOPBACK_CONNECT_SOURCES,
  ];
  app.addHook('onSend', async (request, reply, payload) => {
    const playerOrigins = connectOriginsOfCookies(request.headers.cookie);
    reply.header(
      'Content-Security-Policy',
      contentSecurityPolicy([...fixedSources, ...playerOrigins]),
    );
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    // frame-ancestors' older equivalent, for browsers that predate it.
    reply.header('X-Frame-Options', 'DENY');
    return payload;
  });
}

/** Source maps are never served, even if a build left some behind (the build makes none). */
export const isSourceMap = (url: string): boolean => /\.map$/i.test(url.split('?')[0] ?? '');

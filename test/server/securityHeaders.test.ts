/**
 * Issue 12, "No security headers": the policy and its companions on every kind of response the
 * server gives, the player's own origins taken from the cookie only when they are well formed,
 * and no source map served. The real server (buildServer) over an in-memory PGlite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TokenAuthority, newServerKeys } from '../../server/auth';
import { BODY_LIMIT_BYTES, buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { migrate, type Database } from '../../server/db';
import { CONNECT_COOKIE } from '../../src/features/llm';
import { PROVIDERS } from '../../src/features/llm/providers';
import { DATABASE_START_TIMEOUT_MS, openEmptyPglite } from './support/databases';

let distDir: string;
let app: FastifyInstance;
let db: Database;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Taleweaver</title>');
  fs.writeFileSync(path.join(distDir, 'assets', 'main.0123abcd.js'), 'console.log(1)');
  // As an older build would have left them: they must still not be served.
  fs.writeFileSync(path.join(distDir, 'assets', 'main.0123abcd.js.map'), '{"version":3}');
  fs.writeFileSync(path.join(distDir, 'main.js.map'), '{"version":3}');
  db = await openEmptyPglite();
  await migrate(db);
  const config = readConfig({
    DIST_DIR: distDir,
    LOG_LEVEL: 'silent',
    SIGN_IN_RATE_LIMIT: '1',
    SUPABASE_URL: 'https://project-ref.supabase.co/',
  });
  app = await buildServer(config, {
    db,
    tokens: await TokenAuthority.create(newServerKeys(config.publishableKey)),
  });
  // An error the server did not expect, for the 500 below.
  app.get('/test-failure', async () => {
    throw new Error('an unexpected failure');
  });
}, DATABASE_START_TIMEOUT_MS);

afterAll(async () => {
  await app.close();
  await db.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

/** The policy's directives by name, each with its sources. */
function directives(response: LightMyRequestResponse): Record<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

const page = (headers: Record<string, string> = {}) =>
  app.inject({ url: '/', headers: { accept: 'text/html', ...headers } });
const withCookie = (value: string) => page({ cookie: `other=1; ${CONNECT_COOKIE}=${value}` });
const encoded = (...origins: string[]) => encodeURIComponent(origins.join(' '));

describe('every response carries the headers', () => {
  const oversized = JSON.stringify({ message: 'x'.repeat(BODY_LIMIT_BYTES), signature: '0x' });
  const login = (body: string) =>
    app.inject({
      method: 'POST',
      url: '/functions/v1/wallet-login',
      headers: { 'content-type': 'application/json' },
      body,
    });

  const cases: [string, () => Promise<LightMyRequestResponse>, number][] = [
    ['the page', () => page(), 200],
    [
      'a client-side route',
      () => app.inject({ url: '/game', headers: { accept: 'text/html' } }),
      200,
    ],
    ['an asset', () => app.inject({ url: '/assets/main.0123abcd.js' }), 200],
    ['a portrait-like public file', () => app.inject({ url: '/index.html' }), 200],
    ['an API answer', () => app.inject({ url: '/health' }), 200],
    [
      'a CORS preflight',
      () =>
        app.inject({
          method: 'OPTIONS',
          url: '/rest/v1/game_results',
          headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
        }),
      204,
    ],
    ['a 404', () => app.inject({ url: '/assets/gone.js' }), 404],
    ['a 413', () => login(oversized), 413],
    ['a 500', () => app.inject({ url: '/test-failure' }), 500],
    // The limit is one sign-in request a minute here: the first is refused for its body (400),
    // the second for the rate.
    ['a 429', async () => (await login('{}'), login('{}')), 429],
  ];

  test.each(cases)('%s', async (_what, request, status) => {
    const response = await request();
    expect(response.statusCode).toBe(status);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    const policy = directives(response);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
  });
});

test('the policy: scripts, styles and fonts from the app, connections to the backend and the providers', async () => {
  const policy = directives(await page());
  expect(policy).toEqual({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'font-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': expect.any(Array),
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  });
  // Every preset's host, read from providers.ts itself; a local server on any port.
  const presetHosts = PROVIDERS.filter((provider) => provider.baseUrl !== '')
    .map((provider) => new URL(provider.baseUrl))
    .filter((url) => url.hostname !== 'localhost')
    .map((url) => url.origin);
  expect(presetHosts).toContain('https://api.groq.com');
  expect(policy['connect-src']).toEqual([
    "'self'",
    'https://project-ref.supabase.co',
    ...presetHosts,
    'http://localhost:*',
    'http://127.0.0.1:*',
  ]);
});

describe("the player's own origins from the cookie", () => {
  const connectSrc = async (value: string) =>
    directives(await withCookie(value))['connect-src'] ?? [];
  const fixedCount = async () => (await connectSrc('')).length;

  test('well-formed origins are added, in order, once each', async () => {
    const sources = await connectSrc(
      encoded('https://llm.example.test', 'http://192.168.1.20:11434', 'https://llm.example.test'),
    );
    expect(sources.slice(await fixedCount())).toEqual([
      'https://llm.example.test',
      'http://192.168.1.20:11434',
    ]);
  });

  test('at most four are read', async () => {
    const many = Array.from({ length: 6 }, (_, i) => `https://model${i}.example.test`);
    const sources = await connectSrc(encoded(...many));
    expect(sources.slice(await fixedCount())).toEqual(many.slice(0, 4));
  });

  test.each([
    ['a wildcard', '*'],
    ['a wildcard host', 'https://*.example.test'],
    ['a keyword', "'unsafe-inline'"],
    ['a quote', "https://a.example.test'"],
    ['another directive', 'https://a.example.test; script-src *'],
    ['a space-separated pair', 'https://a.example.test data:'],
    ['a scheme alone', 'https:'],
    ['another scheme', 'javascript://a.example.test'],
    ['a websocket', 'wss://a.example.test'],
    ['a path', 'https://a.example.test/v1'],
    ['a port out of range', 'https://a.example.test:70000'],
    ['upper case', 'https://A.example.test'],
    ['credentials', 'https://user:pass@a.example.test'],
    ['an IPv6 address', 'http://[::1]:8000'],
    ['a label over 63 characters', `https://${'a'.repeat(64)}.example.test`],
    ['an origin over 200 characters', `https://${'a.'.repeat(100)}test`],
  ])('%s is ignored', async (_what, origin) => {
    const value = encoded(origin, 'https://kept.example.test');
    const sources = await connectSrc(value);
    expect(sources.slice(await fixedCount())).toEqual(
      // The valid origin beside it stays, unless the bad one was a whole other directive.
      origin.includes(' ') && !origin.includes(';')
        ? ['https://a.example.test', 'https://kept.example.test']
        : ['https://kept.example.test'],
    );
    const header = (await withCookie(value)).headers['content-security-policy'];
    expect(String(header).split(';')).toHaveLength(10);
  });

  test('a cookie that is not percent-encoded properly, or far too long, adds nothing', async () => {
    expect((await connectSrc('%E0%A4%A')).length).toBe(await fixedCount());
    const long = encoded(...Array.from({ length: 40 }, (_, i) => `https://m${i}.example.test`));
    expect((await connectSrc(long)).length).toBe(await fixedCount());
  });

  test('a raw semicolon ends the cookie: what follows it is another cookie, not the policy', async () => {
    const response = await page({
      cookie: `${CONNECT_COOKIE}=https://a.example.test; script-src *`,
    });
    expect(directives(response)['script-src']).toEqual(["'self'"]);
  });
});

describe('source maps are not served', () => {
  test.each(['/assets/main.0123abcd.js.map', '/main.js.map', '/assets/main.0123abcd.js%2Emap'])(
    '%s is a 404, whatever the request accepts',
    async (url) => {
      for (const accept of ['*/*', 'text/html']) {
        const response = await app.inject({ url, headers: { accept } });
        expect([url, accept, response.statusCode]).toEqual([url, accept, 404]);
        expect(response.body).not.toContain('version');
      }
    },
  );
});

/**
 * Issue 12, "No security headers", and issue 29's additions: the policy and its companions on
 * every kind of response the server gives, the deployer's CONNECT_SRC and the player's own
 * origins from the cookie (only when well formed), HSTS for an https site, and no source map
 * served. The real server (buildServer) over an in-memory PGlite.
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
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../support/timeouts';

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
  // The static hosts' copy of the headers, which a build leaves beside the page.
  fs.writeFileSync(path.join(distDir, '_headers'), '/*\n  X-Version: 3\n');
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
}, STOP_TIMEOUT_MS);

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
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['permissions-policy']).toContain('camera=()');
    // SITE_URL is not set: a server on http://localhost, where HSTS has no place.
    expect(response.headers['strict-transport-security']).toBeUndefined();
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
    'img-src': ["'self'", 'data:', 'blob:'],
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

describe('the Permissions-Policy', () => {
  test('denies the devices and sensors the game never uses, and nothing it does use', async () => {
    const header = String((await page()).headers['permissions-policy']);
    const features = header.split(', ').map((entry) => entry.replace('=()', ''));
    expect(header.split(', ').every((entry) => entry.endsWith('=()'))).toBe(true);
    expect(features).toEqual(
      expect.arrayContaining(['camera', 'microphone', 'geolocation', 'payment', 'usb', 'midi']),
    );
    // Copying the wallet address (AccountSection) and full screen stay possible.
    expect(features).not.toContain('clipboard-write');
    expect(features).not.toContain('fullscreen');
  });

  test("leaves Local Network Access alone: a player's local model server stays within reach", async () => {
    // Chrome gates a public page's calls to the player's computer or network behind a
    // permission whose policy features are these (MDN, Permissions-Policy); a policy naming
    // one would refuse the request before the player is ever asked.
    const header = String((await page()).headers['permissions-policy']);
    for (const feature of ['local-network-access', 'local-network', 'loopback-network']) {
      expect(header).not.toMatch(new RegExp(`(^|[ ,])${feature}=`));
    }
  });
});

describe('a deployment: CONNECT_SRC and an https SITE_URL', () => {
  let deployed: FastifyInstance;
  beforeAll(async () => {
    const config = readConfig({
      SERVE_APP: 'false',
      LOG_LEVEL: 'silent',
      SITE_URL: 'https://game.example.test',
      CONNECT_SRC: 'https://llm.example.test, http://192.168.1.20:11434',
    });
    deployed = await buildServer(config, {
      db,
      tokens: await TokenAuthority.create(newServerKeys(config.publishableKey)),
    });
  }, SERVER_TIMEOUT_MS);
  afterAll(() => deployed.close(), STOP_TIMEOUT_MS);

  test('HSTS on every response, errors included', async () => {
    for (const url of ['/health', '/nowhere']) {
      const response = await deployed.inject({ url });
      expect([url, response.headers['strict-transport-security']]).toEqual([
        url,
        'max-age=63072000; includeSubDomains',
      ]);
    }
  });

  test("CONNECT_SRC's origins come after the fixed ones, then the cookie's", async () => {
    const response = await deployed.inject({
      url: '/health',
      headers: { cookie: `${CONNECT_COOKIE}=${encoded('https://mine.example.test')}` },
    });
    expect(directives(response)['connect-src']?.slice(-3)).toEqual([
      'https://llm.example.test',
      'http://192.168.1.20:11434',
      'https://mine.example.test',
    ]);
  });

  test.each([
    ['a path', 'https://llm.example.test/v1', "(did you mean 'https://llm.example.test'?)"],
    ['upper case', 'https://LLM.example.test', "(did you mean 'https://llm.example.test'?)"],
    ['a wildcard', 'https://*.example.test', "got 'https://*.example.test'"],
    ['a keyword', "'unsafe-inline'", "got ''unsafe-inline''"],
    ['another directive', 'https://a.example.test;script-src', "got 'https://a.example.test;"],
  ])('a CONNECT_SRC with %s stops the server with the value', (_what, origin, said) => {
    expect(() => readConfig({ CONNECT_SRC: `https://ok.example.test ${origin}` })).toThrow(said);
    expect(() => readConfig({ CONNECT_SRC: origin })).toThrow(/^CONNECT_SRC must list origins/);
  });
});

describe('source maps and the static hosts’ header file are not served', () => {
  test('/_headers is not the file: a 404, or the page for a browser', async () => {
    expect((await app.inject({ url: '/_headers' })).statusCode).toBe(404);
    const page = await app.inject({ url: '/_headers', headers: { accept: 'text/html' } });
    expect(page.body).toContain('<title>Taleweaver</title>');
    expect(page.body).not.toContain('X-Version');
  });

  test.each(['/assets/main.0123abcd.js.map', '/main.js.map', '/assets/main.0123abcd.js%2Emap'])(
    '%s is a 404, whatever the request accepts',
    async (url) => {
      for (const accept of ['*/*', 'text/html']) {
        const response = await app.inject({ url, headers: { accept } });
        expect([url, accept, response.statusCode]).toEqual([url, accept, 404]);
        expect(response.body).not.toMatch(/version/i);
      }
    },
  );
});

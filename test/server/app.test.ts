import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { TokenAuthority, newServerKeys } from '../../server/auth';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { type Database } from '../../server/db';
import { DATABASE_START_TIMEOUT_MS, openEmptyPglite } from './support/databases';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../support/timeouts';

let distDir: string;
let app: FastifyInstance;
let db: Database;
let tokens: TokenAuthority;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Taleweaver</title>');
  fs.writeFileSync(path.join(distDir, 'assets', 'main.0123abcd.js'), 'console.log(1)');
  // As the build writes them: compressed copies beside the asset and the page.
  for (const file of ['index.html', 'assets/main.0123abcd.js']) {
    const original = fs.readFileSync(path.join(distDir, file));
    fs.writeFileSync(path.join(distDir, `${file}.br`), zlib.brotliCompressSync(original));
    fs.writeFileSync(path.join(distDir, `${file}.gz`), zlib.gzipSync(original));
  }
  db = await openEmptyPglite();
  tokens = await TokenAuthority.create(newServerKeys('anon-key'));
  app = await buildServer(readConfig({ DIST_DIR: distDir, LOG_LEVEL: 'silent' }), { db, tokens });
}, DATABASE_START_TIMEOUT_MS);

afterAll(async () => {
  await app.close();
  await db.close();
  fs.rmSync(distDir, { recursive: true, force: true });
}, STOP_TIMEOUT_MS);

const page = (url: string) => app.inject({ url, headers: { accept: 'text/html' } });

test('client-side routes get the app page, always revalidated', async () => {
  for (const url of ['/', '/game', '/leaderboard', '/profile', '/no/such/page']) {
    const response = await page(url);
    expect([url, response.statusCode, response.headers['cache-control']]).toEqual([
      url,
      200,
      'no-cache',
    ]);
    expect(response.body).toContain('<title>Taleweaver</title>');
  }
});

test('hashed assets are cached for a year', async () => {
  const response = await app.inject({ url: '/assets/main.0123abcd.js' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

describe("assets go compressed as the browser accepts, from the build's own files", () => {
  const asset = (acceptEncoding?: string) =>
    app.inject({
      url: '/assets/main.0123abcd.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  test('Brotli first, gzip next, the file itself otherwise; always Vary: Accept-Encoding', async () => {
    const br = await asset('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gzip = await asset('gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    for (const response of [br, gzip, plain]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/^accept-encoding$/i);
    }
  });

  test('the app page too, still revalidated every time', async () => {
    const response = await app.inject({
      url: '/game',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toContain(
      '<title>Taleweaver</title>',
    );
  });
});

test('a missing asset or API path is a JSON 404, not the app page', async () => {
  for (const url of ['/assets/gone.js', '/functions/v1/nothing']) {
    const response = await page(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: `No route for GET ${url}` });
  }
});

test('health answers ok', async () => {
  const response = await app.inject({ url: '/health' });
  expect(response.json()).toEqual({ status: 'ok' });
});

test(
  'a server without a build says how to make one',
  async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-empty-'));
    await expect(buildServer(readConfig({ DIST_DIR: empty }), { db, tokens })).rejects.toThrow(
      "run 'npm run build' first",
    );
    fs.rmSync(empty, { recursive: true });
  },
  SERVER_TIMEOUT_MS,
);

test('PORT must be a port number', () => {
  expect(() => readConfig({ PORT: 'eighty' })).toThrow("PORT must be a whole number, got 'eighty'");
});

test('a port beyond 65535 is refused', () => {
  expect(() => readConfig({ PORT: '70000' })).toThrow("PORT must be a port number, got '70000'");
});

/**
 * Issue 29, "Headers wherever it is served": one set of security headers, from
 * server/securityHeaders.ts, in the Node server's answers, in dist/_headers as the build writes
 * it, and in the README's nginx and Caddy examples. The real server (buildServer) over an
 * in-memory PGlite, configured as the README's example build is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { TokenAuthority, newServerKeys } from '../../server/auth';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { migrate, type Database } from '../../server/db';
import {
  ASSET_CACHE_CONTROL,
  HEADERS_FILE_MAX_LINE,
  PAGE_CACHE_CONTROL,
  builtHeaderOptions,
  headersFile,
  readHeadersFile,
} from '../../server/headerFiles';
import { securityHeaders } from '../../server/securityHeaders';
import {
  README_EXAMPLE,
  expectedBlocks,
  readmeBlocks,
  withExpectedBlocks,
} from '../../scripts/headerBlocks';
import { DATABASE_START_TIMEOUT_MS, openEmptyPglite } from '../server/support/databases';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
/** The README example's build variables, as a deployer would set them. */
const EXAMPLE_ENV = { SUPABASE_URL: `${README_EXAMPLE.backendOrigin}/`, CONNECT_SRC: '' };

let distDir: string;
let db: Database;
let server: FastifyInstance;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Taleweaver</title>');
  fs.writeFileSync(path.join(distDir, 'assets', 'main.0123abcd.js'), 'console.log(1)');
  db = await openEmptyPglite();
  await migrate(db);
  // The Node server serving that build on an https site.
  const config = readConfig({
    ...EXAMPLE_ENV,
    DIST_DIR: distDir,
    LOG_LEVEL: 'silent',
    SITE_URL: 'https://game.example.test',
  });
  server = await buildServer(config, {
    db,
    tokens: await TokenAuthority.create(newServerKeys(config.publishableKey)),
  });
}, DATABASE_START_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  await db?.close();
  fs.rmSync(distDir, { recursive: true, force: true });
}, STOP_TIMEOUT_MS);

/** The security headers of a response, by their names as securityHeaders writes them. */
function securityHeadersOf(headers: Record<string, unknown>): Record<string, string> {
  const names = Object.keys(securityHeaders(README_EXAMPLE));
  return Object.fromEntries(names.map((name) => [name, String(headers[name.toLowerCase()])]));
}

/** The `name "value"` pairs of an nginx or Caddy block. */
function pairsOf(block: string, line: RegExp): Record<string, string> {
  return Object.fromEntries(
    [...block.matchAll(line)].map((match) => [match[1]!, match[2]!] as const),
  );
}

describe('one set of headers', () => {
  test("the README's nginx and Caddy blocks are the ones printed from the source", () => {
    // When this fails: npm run headers -- --readme
    expect(readmeBlocks(readme)).toEqual(expectedBlocks());
    expect(withExpectedBlocks(readme)).toBe(readme);
  });

  test('dist/_headers, as the build writes it, holds what the server sends', async () => {
    const fromServer = securityHeadersOf((await server.inject({ url: '/' })).headers);
    const file = readHeadersFile(headersFile(securityHeaders(builtHeaderOptions(EXAMPLE_ENV))));
    expect(file['/*']).toEqual(fromServer);
    expect(Object.keys(fromServer)).toContain('Strict-Transport-Security');
  });

  test('the nginx and Caddy blocks hold what the server sends', async () => {
    const fromServer = securityHeadersOf((await server.inject({ url: '/health' })).headers);
    const blocks = readmeBlocks(readme);
    expect(pairsOf(blocks.nginx, /^add_header (\S+) "([^"]*)" always;$/gm)).toEqual(fromServer);
    expect(pairsOf(blocks.caddy, /^\t(\S+) "([^"]*)"$/gm)).toEqual(fromServer);
  });

  test("dist/_headers' cache rules are the server's", async () => {
    const file = readHeadersFile(headersFile(securityHeaders(README_EXAMPLE)));
    const asset = await server.inject({ url: '/assets/main.0123abcd.js' });
    const page = await server.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(asset.headers['cache-control']).toBe(ASSET_CACHE_CONTROL);
    expect(page.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(file['/assets/*']).toEqual({ 'Cache-Control': ASSET_CACHE_CONTROL });
    expect(file['/index.html']).toEqual({ 'Cache-Control': PAGE_CACHE_CONTROL });
    expect(file['/']).toEqual({ 'Cache-Control': PAGE_CACHE_CONTROL });
    // Both hosts join the values of every rule a path matches: only one rule sets each header.
    const rulesSetting = (name: string) => Object.values(file).filter((rule) => name in rule);
    expect(rulesSetting('Cache-Control').length).toBe(3);
    expect(rulesSetting('Content-Security-Policy').length).toBe(1);
  });
});

describe('dist/_headers for a build', () => {
  test("the build's backend and CONNECT_SRC are in connect-src; HSTS is on", () => {
    const options = builtHeaderOptions({
      SUPABASE_URL: 'https://abcd.supabase.co/rest/v1',
      CONNECT_SRC: 'https://llm.example.test,https://other.example.test:8443',
    });
    const rule = readHeadersFile(headersFile(securityHeaders(options)))['/*']!;
    const connect = /connect-src ([^;]*)/.exec(rule['Content-Security-Policy']!)?.[1]?.split(' ');
    expect(connect?.[1]).toBe('https://abcd.supabase.co');
    expect(connect?.slice(-2)).toEqual([
      'https://llm.example.test',
      'https://other.example.test:8443',
    ]);
    expect(rule['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
  });

  test('a bad build variable stops the build with its value', () => {
    expect(() => builtHeaderOptions({ CONNECT_SRC: 'llm.example.test' })).toThrow(
      "CONNECT_SRC must list origins (http or https, a lowercase host name or IPv4 address, an optional port; no path, wildcard or quote), got 'llm.example.test'",
    );
    expect(() => builtHeaderOptions({ SUPABASE_URL: 'abcd.supabase.co' })).toThrow(
      "SUPABASE_URL must be a URL, got 'abcd.supabase.co'",
    );
  });

  test("stays well inside Cloudflare's limits, and says so when it cannot", () => {
    const text = headersFile(securityHeaders(README_EXAMPLE));
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThan(
      HEADERS_FILE_MAX_LINE / 3,
    );
    const many = Array.from({ length: 12 }, (_, i) => `https://${'m'.repeat(150)}${i}.test`);
    expect(() => headersFile(securityHeaders({ ...README_EXAMPLE, connectSources: many }))).toThrow(
      /over the 2000 static hosts read: name fewer servers in CONNECT_SRC/,
    );
  });
});

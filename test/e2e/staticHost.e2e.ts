/**
 * Issue 29, "Headers wherever it is served": a build for a hosted backend (SUPABASE_URL set, here
 * the local server standing in for Supabase) on a static host that sends dist/_headers as
 * Cloudflare Pages does. The page gets the build's policy; a Custom server outside it is not
 * reloaded for (no server reads the cookie there): the key screen names the origin and
 * CONNECT_SRC, in English and Korean, and what the player typed stays in the form.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { TestWallet } from '../fixtures/testWallet';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { startServer, type RunningServer } from './support/server';
import { startStaticHost, type StaticHost } from './support/staticHost';
import { say, type Lang } from './support/words';

const PLAYERS_SERVER = 'https://llm.example.test/v1';
const PLAYERS_ORIGIN = 'https://llm.example.test';
const ALLOWED_ORIGIN = 'https://allowed.example.test';
const projectRoot = path.resolve(__dirname, '..', '..');

let host: StaticHost;
let backend: RunningServer;
let browser: Browser;

/**
 * The build a deployer makes for a static host. REDUX_DEVTOOLS=on makes it unminified and
 * uncompressed, about three times as fast, and changes nothing this test looks at.
 */
async function buildForStaticHost(dir: string, supabaseUrl: string): Promise<void> {
  const webpack = path.join(projectRoot, 'node_modules', '.bin', 'webpack');
  await promisify(execFile)(webpack, ['--mode', 'production'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      REDUX_DEVTOOLS: 'on',
      DIST_DIR: dir,
      SUPABASE_URL: supabaseUrl,
      CONNECT_SRC: ALLOWED_ORIGIN,
    },
    maxBuffer: 16 * 1024 * 1024,
  });
}

beforeAll(async () => {
  // The host first: the backend must know the site's origin (SITE_URL) for sign-in.
  host = await startStaticHost(fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-static-')));
  [backend, browser] = await Promise.all([
    startServer({ SERVE_APP: 'false', SITE_URL: host.url, SIGN_IN_RATE_LIMIT: '1000' }),
    launchBrowser(),
  ]);
  await buildForStaticHost(host.dir, backend.url);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([host?.close(), backend?.stop()]);
  if (host) fs.rmSync(host.dir, { recursive: true, force: true });
});

interface Attempt {
  page: Page;
  errors: string[];
  loads: () => number;
  policy: string;
}

/** Signs in on the static host, then submits a Custom server the build does not allow. */
async function submitOutsideThePolicy(lang: Lang, viewport = DESKTOP): Promise<Attempt> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(21));
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  const response = await page.goto(host.url);
  const policy = (await response?.headerValue('content-security-policy')) ?? '';
  if (lang === 'kr') await page.getByLabel('Language').selectOption('kr');
  await page.getByRole('button', { name: say(lang, 'connect') }).click();
  await page.locator('.wallet-address__tick').waitFor();
  await page.getByLabel(say(lang, 'provider')).selectOption('custom');
  await page.getByLabel(say(lang, 'baseUrl')).fill(PLAYERS_SERVER);
  await page.getByLabel(say(lang, 'model'), { exact: true }).fill('my-model');
  await page.getByLabel(say(lang, 'apiKey'), { exact: true }).fill('sk-typed-by-the-player');
  await page.getByRole('button', { name: say(lang, 'submit') }).click();
  await page.getByRole('alert').waitFor();
  return { page, errors, loads: () => loads, policy };
}

test("the page carries the build's _headers: its backend and CONNECT_SRC, HSTS, no Node cookie", async () => {
  const response = await fetch(host.url, { headers: { accept: 'text/html' } });
  const connect = /connect-src ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '');
  expect(connect?.[1]?.split(' ')).toEqual(expect.arrayContaining([backend.url, ALLOWED_ORIGIN]));
  expect(response.headers.get('strict-transport-security')).toBe(
    'max-age=63072000; includeSubDomains',
  );
  expect(response.headers.get('cache-control')).toBe('no-cache');
});

test.each([
  ['en', DESKTOP, 'desktop'],
  ['en', PHONE, 'phone'],
  ['kr', DESKTOP, 'desktop'],
  ['kr', PHONE, 'phone'],
] as const)(
  '%s, %s: a Custom server outside the policy gets the message, not a reload',
  async (lang, viewport, name) => {
    const { page, errors, loads, policy } = await submitOutsideThePolicy(lang, viewport);
    try {
      const alert = page.getByRole('alert');
      const said = await alert.innerText();
      expect(said).toContain(PLAYERS_ORIGIN);
      expect(said).toContain('CONNECT_SRC');
      expect(said).toContain(lang === 'en' ? 'security policy' : '보안 정책');
      expect(policy).not.toContain(PLAYERS_ORIGIN);
      // No reload, no cookie for a server that would never read it; the form as typed.
      expect(loads()).toBe(1);
      expect(await page.context().cookies()).toEqual([]);
      expect(await page.getByLabel(say(lang, 'baseUrl')).inputValue()).toBe(PLAYERS_SERVER);
      expect(await page.getByLabel(say(lang, 'apiKey'), { exact: true }).inputValue()).toBe(
        'sk-typed-by-the-player',
      );
      expect(await page.getByRole('button', { name: say(lang, 'submit') }).isEnabled()).toBe(true);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `static-host-not-allowed-${lang}-${name}`);
      // No policy violation (nothing was sent) and no Permissions-Policy complaint.
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  },
);

/**
 * Fault `headers` (issue 12, item 4): the real server, started as `npm start` starts it, sends
 * the Content-Security-Policy, nosniff and Referrer-Policy on the page, assets, API answers and
 * errors, and serves no source map; in Chromium the policy is enforced (before Playwright's
 * routing: a host it does not name is never reached), a Custom provider on a host of its own
 * plays a whole game after the one reload that allows it, a Local one on 127.0.0.1 needs none,
 * and no page of the journey reports a policy violation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api/backend';
import { CONNECT_COOKIE, connectOriginsOfCookies } from '../../common/connectSources';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import { DESKTOP, launchBrowser } from '../e2e/support/browser';
import { injectTestWallet } from '../e2e/support/injectWallet';
import { connectWallet, playNewGameToTheEnd } from '../e2e/support/journey';
import { routeProviderHost } from '../e2e/support/providerRoute';
import { startServer, type RunningServer } from '../e2e/support/server';
import { count, ms, recordFinding } from './support/findings';
import { APP_START_TIMEOUT_MS } from '../support/timeouts';

const API_KEY = 'sk-headers-reliability';
/** A Custom server that is not on this machine: Playwright routes it to the fake. */
const CUSTOM_BASE_URL = 'https://llm.example.test/v1';
const CUSTOM_ORIGIN = 'https://llm.example.test';
const PRESET_ORIGINS = [
  'https://api.groq.com',
  'https://api.openai.com',
  'https://openrouter.ai',
  'https://api.together.xyz',
];
const distDir = path.resolve(process.env.DIST_DIR ?? path.join(__dirname, '..', '..', 'dist'));

let browser: Browser;
let server: RunningServer;
/** A second server whose sign-in limit is one request a minute, for the 429. */
let strictServer: RunningServer;
let model: FakeModelServer;

beforeAll(async () => {
  [browser, server, strictServer, model] = await Promise.all([
    launchBrowser(),
    startServer({ SIGN_IN_RATE_LIMIT: '1000' }),
    startServer({ SIGN_IN_RATE_LIMIT: '1' }),
    startFakeModelServer({ validKeys: [API_KEY] }),
  ]);
}, APP_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), strictServer?.stop(), model?.close()]);
});

// ---- The headers, as any client gets them ----------------------------------------------------

/** The policy's directives by name, each with its sources. */
function directivesOf(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What is wrong with a response's headers: [] when all are there as they should be. */
function headerProblems(headers: Headers): string[] {
  const policy = directivesOf(headers.get('content-security-policy'));
  const expected: Record<string, string[]> = {
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const problems = Object.entries(expected)
    .filter(([name, sources]) => JSON.stringify(policy[name]) !== JSON.stringify(sources))
    .map(([name]) => `${name} is ${JSON.stringify(policy[name])}`);
  const connect = policy['connect-src'] ?? [];
  for (const source of ["'self'", ...PRESET_ORIGINS, 'http://localhost:*', 'http://127.0.0.1:*']) {
    if (!connect.includes(source)) problems.push(`connect-src lacks ${source}`);
  }
  if (headers.get('x-content-type-options') !== 'nosniff') problems.push('no nosniff');
  if (headers.get('referrer-policy') !== 'no-referrer') problems.push('no Referrer-Policy');
  return problems;
}

interface Checked {
  what: string;
  status: number;
  expectedStatus: number;
  problems: string[];
}

test('every kind of response carries the headers; no source map is served', async () => {
  const html = { accept: 'text/html' };
  // As supabase-js sends them, with the anonymous role.
  const apikey = { apikey: DEFAULT_PUBLISHABLE_KEY };
  const pageHtml = await (await fetch(server.url, { headers: html })).text();
  const script = /<script defer src="?(\/assets\/main\.[^"\s>]+\.js)/.exec(pageHtml)?.[1];
  const style = /<link href="?(\/assets\/main\.[^"\s>]+\.css)/.exec(pageHtml)?.[1];
  expect([script, style]).toEqual([expect.any(String), expect.any(String)]);

  const big = JSON.stringify({ padding: 'x'.repeat(40 * 1024) });
  const login = (url: string) =>
    fetch(`${url}/functions/v1/wallet-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  const requests: [string, () => Promise<Response>, number][] = [
    ['the page', () => fetch(server.url, { headers: html }), 200],
    ['a client-side route', () => fetch(`${server.url}/leaderboard`, { headers: html }), 200],
    ['the main script', () => fetch(server.url + script), 200],
    ['the main stylesheet', () => fetch(server.url + style), 200],
    ['a portrait', () => fetch(`${server.url}/characters/1.png`), 200],
    ['the health check', () => fetch(`${server.url}/health`), 200],
    [
      'a REST read',
      () => fetch(`${server.url}/rest/v1/leaderboard?limit=1`, { headers: apikey }),
      200,
    ],
    [
      'a CORS preflight',
      () =>
        fetch(`${server.url}/rest/v1/game_results`, {
          method: 'OPTIONS',
          headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
        }),
      204,
    ],
    ['a missing asset (404)', () => fetch(`${server.url}/assets/missing.js`), 404],
    ['the main script’s source map (404)', () => fetch(`${server.url + script}.map`), 404],
    [
      'an oversized body (413)',
      () =>
        fetch(`${server.url}/rest/v1/game_results`, {
          method: 'POST',
          headers: { ...apikey, 'content-type': 'application/json' },
          body: big,
        }),
      413,
    ],
    [
      'too many sign-ins (429)',
      async () => (await login(strictServer.url), login(strictServer.url)),
      429,
    ],
  ];
  const checked: Checked[] = [];
  for (const [what, request, expectedStatus] of requests) {
    const response = await request();
    await response.arrayBuffer();
    checked.push({
      what,
      status: response.status,
      expectedStatus,
      problems: headerProblems(response.headers),
    });
  }
  const mapsInBuild = fs
    .readdirSync(distDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.map'));

  const wrong = checked.filter((c) => c.problems.length > 0 || c.status !== c.expectedStatus);
  const held = recordFinding({
    fault: 'headers',
    check: 'Headers on page, assets, API and errors; no source maps',
    figures: {
      'responses checked': `${count(checked.length)} (${checked.map((c) => c.status).join(', ')})`,
      'responses missing a header or with the wrong status': count(wrong.length),
      'source maps in the build': count(mapsInBuild.length),
    },
    held: wrong.length === 0 && mapsInBuild.length === 0,
  });
  expect(wrong).toEqual([]);
  expect(mapsInBuild).toEqual([]);
  expect(held).toBe(true);
});

// ---- In Chromium ------------------------------------------------------------------------------

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

interface Player {
  context: BrowserContext;
  page: Page;
  /** securitypolicyviolation events of every page the context loaded. */
  violations: Violation[];
  /** Console lines about the policy ("Refused to ..."). */
  policyConsole: string[];
  /** Documents loaded in the tab (the first load, then each reload or full navigation). */
  documentLoads: () => number;
}

async function newPlayer(): Promise<Player> {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await injectTestWallet(context, new TestWallet(12));
  const violations: Violation[] = [];
  await context.exposeBinding('__reportPolicyViolation', (_source, violation: Violation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportPolicyViolation: (v: unknown) => void })
        .__reportPolicyViolation;
      report({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
  });
  const page = await context.newPage();
  const policyConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text()))
      policyConsole.push(message.text());
  });
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  return { context, page, violations, policyConsole, documentLoads: () => loads };
}

test('the policy is enforced before Playwright’s routing: a host it does not name is never reached', async () => {
  const player = await newPlayer();
  try {
    const route = await routeProviderHost(player.context, CUSTOM_BASE_URL, model);
    await player.page.goto(server.url);
    const outcome = await player.page.evaluate(
      (url) =>
        fetch(url).then(
          (response) => `answered ${response.status}`,
          (error: Error) => `refused: ${error.name}`,
        ),
      `${CUSTOM_BASE_URL}/models`,
    );
    await player.page.waitForTimeout(200); // the violation event is queued after the refusal
    const blocked = player.violations.filter((v) => v.blocked.startsWith(CUSTOM_ORIGIN));
    const held = recordFinding({
      fault: 'headers',
      check: 'Policy enforced before routing',
      figures: {
        'fetch to an unnamed host': outcome,
        'requests that reached the route': count(route.calls.length),
        'violations reported for it': count(blocked.length),
      },
      held: outcome.startsWith('refused') && route.calls.length === 0 && blocked.length === 1,
    });
    expect(outcome).toBe('refused: TypeError');
    expect(route.calls).toEqual([]);
    expect(blocked.map((v) => v.directive)).toEqual(['connect-src']);
    expect(held).toBe(true);
  } finally {
    await player.context.close();
  }
});

test('Custom on its own host: one reload allows it, a whole game plays, and no page reports a violation', async () => {
  model.requests.length = 0;
  const player = await newPlayer();
  const { page, context } = player;
  try {
    const route = await routeProviderHost(context, CUSTOM_BASE_URL, model);
    await connectWallet(page, server.url);
    const loadsBefore = player.documentLoads();
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('Base URL').fill(CUSTOM_BASE_URL);
    await page.getByLabel('Model', { exact: true }).fill('fake-model');
    await page.getByLabel('API key').fill(API_KEY);
    const pageResponse = page.waitForResponse(
      (response) => response.url() === `${server.url}/` && response.request().isNavigationRequest(),
    );
    const submitted = Date.now();
    await page.getByRole('button', { name: 'Submit' }).click();
    const reloadedPolicy = directivesOf(
      await (await pageResponse).headerValue('content-security-policy'),
    );
    await page.waitForURL(`${server.url}/game`);
    await page.getByRole('button', { name: 'Start New Game' }).waitFor();
    const keyCheckMs = Date.now() - submitted;
    const reloads = player.documentLoads() - loadsBefore;
    const cookie = (await context.cookies(server.url)).find((c) => c.name === CONNECT_COOKIE);

    const turns = await playNewGameToTheEnd(page);
    // The rest of the app under the policy: the backend pages and the Korean interface.
    await page.goto(`${server.url}/leaderboard`);
    await page.getByRole('heading', { name: 'Leaderboard' }).first().waitFor();
    await page.goto(`${server.url}/profile`);
    await page.getByLabel('Language').selectOption('kr');
    await page.getByText('총 게임 수').first().waitFor();
    const fontsLoaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((font) => font.status === 'loaded').length;
    });

    const refusedCalls = route.calls.filter((call) => call.status >= 400);
    const held = recordFinding({
      fault: 'headers',
      check: 'Custom provider on its own host, whole game',
      figures: {
        'reloads to allow the host': count(reloads),
        'Submit to load-or-create': ms(keyCheckMs),
        'turns played': count(turns),
        'requests to the Custom host': count(route.calls.length),
        'fonts loaded': count(fontsLoaded),
        'policy violations': count(player.violations.length),
        'policy console messages': count(player.policyConsole.length),
      },
      held:
        reloads === 1 &&
        turns >= 7 &&
        route.calls.length > 0 &&
        refusedCalls.length === 0 &&
        player.violations.length === 0 &&
        player.policyConsole.length === 0,
    });
    expect(reloadedPolicy['connect-src']).toContain(CUSTOM_ORIGIN);
    expect(connectOriginsOfCookies(`${cookie?.name}=${cookie?.value}`)).toEqual([CUSTOM_ORIGIN]);
    expect(reloads).toBe(1);
    expect(turns).toBeGreaterThanOrEqual(7);
    expect(route.calls.length).toBe(model.requests.length);
    expect(refusedCalls).toEqual([]);
    expect(
      model.requests.every((request) => request.headers.authorization === `Bearer ${API_KEY}`),
    ).toBe(true);
    expect(fontsLoaded).toBeGreaterThan(0);
    expect(player.violations).toEqual([]);
    expect(player.policyConsole).toEqual([]);
    expect(held).toBe(true);
  } finally {
    await context.close();
  }
}, 150_000);

test('Local on 127.0.0.1 is in every page’s policy: the key check needs no reload', async () => {
  const appOrigin = new URL(server.url).origin;
  const local = await startFakeModelServer({ profile: 'local', allowedOrigins: [appOrigin] });
  const player = await newPlayer();
  const { page, context } = player;
  try {
    await connectWallet(page, server.url);
    const loadsBefore = player.documentLoads();
    await page.getByLabel('Provider').selectOption('local');
    await page.getByLabel('Base URL').fill(local.url);
    const submitted = Date.now();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${server.url}/game`);
    await page.getByRole('button', { name: 'Start New Game' }).waitFor();
    const keyCheckMs = Date.now() - submitted;
    const reloads = player.documentLoads() - loadsBefore;
    const held = recordFinding({
      fault: 'headers',
      check: 'Local provider on 127.0.0.1, key check',
      figures: {
        reloads: count(reloads),
        'Submit to load-or-create': ms(keyCheckMs),
        'requests to the local server': count(local.requests.length),
        'policy violations': count(player.violations.length),
      },
      held: reloads === 0 && local.requests.length > 0 && player.violations.length === 0,
    });
    expect(reloads).toBe(0);
    expect(local.requests.length).toBeGreaterThan(0);
    expect(player.violations).toEqual([]);
    expect(held).toBe(true);
  } finally {
    await context.close();
    await local.close();
  }
});

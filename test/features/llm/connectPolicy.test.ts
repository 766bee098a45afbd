import fc from 'fast-check';
import {
  CONNECT_COOKIE,
  MAX_CONNECT_ORIGINS,
  connectCookie,
  connectOriginOf,
  connectOriginsOfCookies,
  isConnectOrigin,
  presetConnectOrigins,
} from '../../../common/connectSources';
import { PROVIDERS } from '../../../src/features/llm';
import {
  connectStep,
  pageAllows,
  readPendingKeyCheck,
  reloadToAllow,
} from '../../../src/features/llm/connectPolicy';
import { fakeConnectPage, reloaded } from '../../fixtures/connectPage';

const CHECK = {
  provider: 'custom',
  model: 'my-model',
  baseUrl: 'https://llm.example.test/v1',
  apiKey: 'sk-mine',
};

describe('the origins every page allows', () => {
  test("the hosted presets' hosts, the ones providers.ts calls", () => {
    expect(presetConnectOrigins()).toEqual([
      'https://api.groq.com',
      'https://api.openai.com',
      'https://openrouter.ai',
      'https://api.together.xyz',
    ]);
    const page = fakeConnectPage();
    // Every preset with a host of its own (Custom has none) is in every page's policy.
    const hosts = PROVIDERS.map(({ baseUrl }) => connectOriginOf(baseUrl)).filter(Boolean);
    expect(hosts).toHaveLength(PROVIDERS.length - 1);
    for (const host of hosts) expect(pageAllows(page, host!)).toBe(true);
  });

  test.each([
    ['the page itself', 'http://localhost:8080', true],
    ['a preset host', 'https://openrouter.ai', true],
    ['Ollama on localhost', 'http://localhost:11434', true],
    ['llama.cpp on 127.0.0.1', 'http://127.0.0.1:8000', true],
    ['a server on the network', 'http://192.168.1.20:11434', false],
    ['a hosted Custom server', 'https://llm.example.test', false],
  ])('%s: %s', (_what, origin, allowed) => {
    expect(pageAllows(fakeConnectPage(), origin)).toBe(allowed);
  });
});

describe('a base URL and its origin', () => {
  test.each([
    ['https://llm.example.test/v1', 'https://llm.example.test'],
    ['  HTTP://LLM.Example.test:8080/v1/  ', 'http://llm.example.test:8080'],
    ['https://llm.example.test:443/v1', 'https://llm.example.test'],
    ['ftp://llm.example.test', null],
    ['not a url', null],
  ])('%s -> %s', (baseUrl, origin) => {
    expect(connectOriginOf(baseUrl)).toBe(origin);
  });

  test('every origin URL writes for an http(s) host name is one the server accepts', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.array(label, { maxLength: 3 }),
        // A last label of digits would make the URL an IPv4 address.
        fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        (scheme, labels, top, port) => {
          const host = [...labels, top].join('.');
          const origin = connectOriginOf(`${scheme}://${host}${port ? `:${port}` : ''}/v1`);
          expect(origin).not.toBeNull();
          expect(isConnectOrigin(origin!)).toBe(true);
        },
      ),
    );
  });

  test('nothing the server accepts can end a directive or add a source', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        if (isConnectOrigin(text)) expect(text).not.toMatch(/[\s;,'"*]/);
      }),
    );
  });
});

describe('the cookie', () => {
  test('the latest origin first, earlier ones after it, at most four, readable back', () => {
    const earlier = ['https://a.example.test', 'https://b.example.test', 'https://c.example.test'];
    const cookie = connectCookie('https://b.example.test', earlier, false);
    expect(cookie).toMatch(
      new RegExp(`^${CONNECT_COOKIE}=[^ ;]+; Path=/; Max-Age=\\d+; SameSite=Lax$`),
    );
    const [pair] = cookie.split(';');
    expect(connectOriginsOfCookies(`x=1; ${pair}`)).toEqual([
      'https://b.example.test',
      'https://a.example.test',
      'https://c.example.test',
    ]);
    const full = connectCookie(
      'https://d.example.test',
      [...earlier, 'https://e.example.test'],
      true,
    );
    expect(full).toMatch(/; Secure$/);
    expect(connectOriginsOfCookies(full.split(';')[0])).toHaveLength(MAX_CONNECT_ORIGINS);
  });
});

describe('the reload that allows a server, once', () => {
  test('an origin the page does not allow: cookie, kept check, one reload; then allowed', () => {
    const page = fakeConnectPage('other=1');
    expect(connectStep(page, 'https://llm.example.test')).toBe('reload');
    reloadToAllow(page, 'https://llm.example.test', CHECK);
    expect(page.reloads).toBe(1);
    expect(connectOriginsOfCookies(page.readCookies())).toEqual(['https://llm.example.test']);
    expect(page.cookies.get('other')).toBe('1');

    const after = reloaded(page);
    expect(readPendingKeyCheck(after.sessionStorage)).toMatchObject(CHECK);
    expect(connectStep(after, 'https://llm.example.test')).toBe('go');
  });

  test('a page that still does not allow it after the reload (cookies refused) goes ahead', () => {
    const page = fakeConnectPage();
    page.writeCookie = () => undefined;
    reloadToAllow(page, 'https://llm.example.test', CHECK);
    const after = reloaded(page);
    expect(connectStep(after, 'https://llm.example.test')).toBe('go');
    // Another server is still worth one reload.
    expect(connectStep(after, 'https://other.example.test')).toBe('reload');
  });

  test('an origin no policy can name is not reloaded for', () => {
    expect(connectStep(fakeConnectPage(), 'http://[::1]:8000')).toBe('go');
  });

  test('a kept check is resumed only while it is fresh and whole', () => {
    const page = fakeConnectPage();
    reloadToAllow(page, 'https://llm.example.test', CHECK);
    const storage = page.sessionStorage;
    expect(readPendingKeyCheck(storage, Date.now() + 5_000)).toMatchObject(CHECK);
    expect(readPendingKeyCheck(storage, Date.now() + 120_000)).toBeNull();
    // A check too old to resume is not left behind with its API key.
    expect(storage.getItem('taleweaver-pending-key-check')).toBeNull();
    storage.setItem('taleweaver-pending-key-check', '{"provider": "custom"');
    expect(readPendingKeyCheck(storage)).toBeNull();
    expect(storage.getItem('taleweaver-pending-key-check')).toBeNull();
    storage.setItem(
      'taleweaver-pending-key-check',
      JSON.stringify({ ...CHECK, apiKey: 7, savedAt: Date.now() }),
    );
    expect(readPendingKeyCheck(storage)).toBeNull();
    expect(storage.getItem('taleweaver-pending-key-check')).toBeNull();
  });
});

describe('a build for a static host (SUPABASE_URL set): no server reads the cookie', () => {
  const STATIC_HOST = { builtOrigins: ['https://built.example.test'], widensByCookie: false };
  const staticPage = (cookies = '') =>
    fakeConnectPage(cookies, 'https://game.example.test', STATIC_HOST);

  test("the build's CONNECT_SRC and every page's origins are allowed; the cookie's are not", () => {
    const cookie = `${CONNECT_COOKIE}=${encodeURIComponent('https://llm.example.test')}`;
    const page = staticPage(cookie);
    expect(pageAllows(page, 'https://built.example.test')).toBe(true);
    expect(pageAllows(page, 'https://api.groq.com')).toBe(true);
    expect(pageAllows(page, 'http://localhost:11434')).toBe(true);
    expect(pageAllows(page, 'https://llm.example.test')).toBe(false);
    // The same cookie on a page the Node server sent does allow it.
    expect(pageAllows(fakeConnectPage(cookie), 'https://llm.example.test')).toBe(true);
  });

  test('an origin outside the policy is blocked, never reloaded for, and nothing is written', () => {
    const page = staticPage();
    expect(connectStep(page, 'https://llm.example.test')).toBe('blocked');
    expect(connectStep(page, 'https://built.example.test')).toBe('go');
    expect(page.reloads).toBe(0);
    expect(page.cookies.size).toBe(0);
  });

  test('an origin no policy can name goes ahead, to be found unreachable', () => {
    expect(connectStep(staticPage(), 'http://[::1]:8000')).toBe('go');
  });

  test("a Node server's page holds the build's CONNECT_SRC too: no reload for it", () => {
    const page = fakeConnectPage('', 'http://localhost:8080', {
      builtOrigins: ['https://built.example.test'],
      widensByCookie: true,
    });
    expect(connectStep(page, 'https://built.example.test')).toBe('go');
  });
});

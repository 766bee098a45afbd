/**
 * Local models from a public site (DESIGN.md; issue 38, part 2): when the player's own server
 * cannot be reached from a page the browser counts as less private, the key check asks the
 * browser's Local Network Access permission. Denied, the player is told so (not CORS); granted,
 * not yet asked, or unknown to the browser, the CORS hint stays. The key check worker runs
 * with expectSaga from the game's public API, over the root reducer; the browser's fetch fails
 * as Chromium's does when the permission is refused (a TypeError, "Failed to fetch").
 */
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../../src/app/store';
import { KEY_CHECK_TIMEOUT_MS, checkKey, gameActions } from '../../../src/features/game';
import { httpModelClient, type LocalNetworkAccess } from '../../../src/features/llm';
import { appStateWith, keyProblemOf } from '../../fixtures/games';
import { MemoryStorage } from '../../fixtures/testWallet';
import { virtualClock } from '../../support/virtualClock';

const OLLAMA = 'http://localhost:11434/v1';
const LAN_SERVER = 'http://192.168.1.20:1234/v1';

/** Chromium's fetch when Local Network Access (or CORS) stops a request: no answer at all. */
const failedFetch: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));

interface Page {
  host?: string;
  secure?: boolean;
  state?: PermissionState;
  /** The names the browser knows (all three, as Chromium 156 does, unless told). */
  names?: readonly string[];
  /** A state of its own for some names (the rest have `state`). */
  states?: Record<string, PermissionState>;
}

const ALL_NAMES = ['loopback-network', 'local-network', 'local-network-access'];

/** The page's Local Network Access as a test sets it, recording the names asked about. */
function pageAt({
  host = 'taleweaver.example',
  secure = true,
  state = 'denied',
  names = ALL_NAMES,
  states = {},
}: Page) {
  const asked: string[] = [];
  const access: LocalNetworkAccess = {
    pageHost: host,
    secureContext: secure,
    permissions: {
      query: async ({ name }) => {
        asked.push(name);
        if (!names.includes(name)) throw new TypeError(`'${name}' is not a valid PermissionName`);
        return { name, state: states[name] ?? state } as PermissionStatus;
      },
    },
  };
  return { access, asked };
}

function submitLocalKey(
  localNetwork: LocalNetworkAccess | null,
  { provider = 'local', baseUrl = OLLAMA, model = 'llama3.2' } = {},
) {
  const context: Record<string, unknown> = {
    connectPage: null,
    localNetwork,
    storage: new MemoryStorage(),
    model: httpModelClient(failedFetch),
    clock: virtualClock({ held: (ms) => ms === KEY_CHECK_TIMEOUT_MS }),
  };
  const submitted = gameActions.apiKeySubmitted('');
  const state = appStateWith(
    { turn: { phase: 'keyNeeded' }, apiKey: '' },
    { provider, model, baseUrl },
  );
  return expectSaga(checkKey, submitted)
    .withReducer(rootReducer, rootReducer(state, submitted))
    .provide({ getContext: (name, next) => (name in context ? context[name] : next()) })
    .run(false);
}

test('a public page whose permission to reach this computer is denied: that, not CORS', async () => {
  const page = pageAt({ state: 'denied' });
  const { storeState } = await submitLocalKey(page.access);
  expect(page.asked).toEqual(['loopback-network', 'local-network-access']);
  expect(storeState.game.keyCheck).toMatchObject({
    status: 'refused',
    error: 'localNetworkDenied',
  });
  expect(keyProblemOf(storeState.game)).toMatchObject({
    reason: 'localNetworkDenied',
    provider: 'local',
    origin: 'http://localhost:11434',
    // No CORS hint: OLLAMA_ORIGINS cannot help.
    ownServer: false,
  });
  // Nothing is lost: the choices stay for the form, to submit again once allowed.
  expect(storeState.settings).toMatchObject({ provider: 'local', baseUrl: OLLAMA });
  expect(storeState.game.turn).toEqual({ phase: 'keyNeeded' });
});

test('a server on the local network asks the local-network permission', async () => {
  const page = pageAt({ state: 'denied' });
  const { storeState } = await submitLocalKey(page.access, {
    provider: 'custom',
    baseUrl: LAN_SERVER,
    model: 'qwen3',
  });
  expect(page.asked).toEqual(['local-network', 'local-network-access']);
  expect(keyProblemOf(storeState.game)).toMatchObject({
    reason: 'localNetworkDenied',
    provider: 'custom',
    origin: 'http://192.168.1.20:1234',
  });
});

test.each<PermissionState>(['granted', 'prompt'])(
  'permission %s: the request failed for another reason, and the CORS hint stays',
  async (state) => {
    const page = pageAt({ state });
    const { storeState } = await submitLocalKey(page.access);
    expect(page.asked).toEqual(['loopback-network', 'local-network-access']);
    expect(storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'providerUnreachable',
    });
    expect(keyProblemOf(storeState.game)).toMatchObject({
      reason: 'providerUnreachable',
      ownServer: true,
    });
  },
);

test('a browser that knows only local-network-access (Chrome 142) is asked by that name', async () => {
  const page = pageAt({ state: 'denied', names: ['local-network-access'] });
  const { storeState } = await submitLocalKey(page.access);
  expect(page.asked).toEqual(['loopback-network', 'local-network-access']);
  expect(keyProblemOf(storeState.game)).toMatchObject({ reason: 'localNetworkDenied' });
});

test('Chromium 156 with only the alias denied (the granular name at prompt): denied', async () => {
  const page = pageAt({ state: 'prompt', states: { 'local-network-access': 'denied' } });
  const { storeState } = await submitLocalKey(page.access);
  expect(keyProblemOf(storeState.game)).toMatchObject({ reason: 'localNetworkDenied' });
});

test('a browser that knows no such permission (Firefox, Safari): the CORS hint stays', async () => {
  const page = pageAt({ state: 'denied', names: [] });
  const { storeState } = await submitLocalKey(page.access);
  expect(page.asked).toEqual(['loopback-network', 'local-network-access']);
  expect(keyProblemOf(storeState.game)).toMatchObject({
    reason: 'providerUnreachable',
    ownServer: true,
  });
});

test('a page on this computer needs no permission: nothing is asked, the CORS hint stays', async () => {
  for (const host of ['localhost', '127.0.0.1']) {
    const page = pageAt({ host, state: 'denied' });
    const { storeState } = await submitLocalKey(page.access);
    expect(page.asked).toEqual([]);
    expect(keyProblemOf(storeState.game)).toMatchObject({
      reason: 'providerUnreachable',
      ownServer: true,
    });
  }
});

test('a page on the local network asks only for this computer, not for its own network', async () => {
  const toLan = pageAt({ host: '192.168.1.5', state: 'denied' });
  await submitLocalKey(toLan.access, { provider: 'custom', baseUrl: LAN_SERVER });
  expect(toLan.asked).toEqual([]);

  const toLoopback = pageAt({ host: '192.168.1.5', state: 'denied' });
  const { storeState } = await submitLocalKey(toLoopback.access);
  expect(toLoopback.asked).toEqual(['loopback-network', 'local-network-access']);
  expect(keyProblemOf(storeState.game)).toMatchObject({ reason: 'localNetworkDenied' });
});

test('a plain http public page, which the browser never lets in: the https address is the way', async () => {
  const page = pageAt({ secure: false, state: 'denied' });
  const { storeState } = await submitLocalKey(page.access);
  expect(storeState.game.keyCheck).toMatchObject({
    status: 'refused',
    error: 'localNetworkInsecure',
  });
  expect(keyProblemOf(storeState.game)).toMatchObject({
    reason: 'localNetworkInsecure',
    ownServer: false,
  });
});

test('without a page to ask (no Local Network Access in the context): as before', async () => {
  const { storeState } = await submitLocalKey(null);
  expect(keyProblemOf(storeState.game)).toMatchObject({
    reason: 'providerUnreachable',
    ownServer: true,
  });
});

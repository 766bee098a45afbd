/**
 * The key check and the page's Content-Security-Policy (src/features/llm/connectPolicy.ts): a
 * Custom server the page's policy does not name is allowed by one reload, after which the same
 * check goes through. The key check worker runs with expectSaga over the root reducer and ends
 * with its flow; the fake model server stands in for the player's server, reached through its
 * public name by a routed fetch.
 */
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../../src/app/store';
import { KEY_CHECK_TIMEOUT_MS, checkKey, gameActions, stageOf } from '../../../src/features/game';
import { httpModelClient } from '../../../src/features/llm';
import { readPendingKeyCheck } from '../../../src/features/llm/connectPolicy';
import { fakeConnectPage, reloaded, type FakeConnectPage } from '../../fixtures/connectPage';
import { startFakeModelServer, type FakeModelServer } from '../../fixtures/fakeModelServer';
import { appStateWith } from '../../fixtures/games';
import { routedFetch } from '../../fixtures/routedFetch';
import { MemoryStorage } from '../../fixtures/testWallet';
import { virtualClock } from '../../support/virtualClock';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../support/timeouts';

const PLAYERS_SERVER = 'https://llm.example.test/v1';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
}, SERVER_TIMEOUT_MS);
afterAll(() => model.close(), STOP_TIMEOUT_MS);
beforeEach(() => {
  model.requests.length = 0;
});

const state = (baseUrl: string) =>
  appStateWith(
    { turn: { phase: 'keyNeeded' }, apiKey: '' },
    { provider: 'custom', model: 'fake-model', baseUrl },
  );

function submitKey(page: FakeConnectPage, baseUrl = PLAYERS_SERVER) {
  const context: Record<string, unknown> = {
    connectPage: page,
    storage: new MemoryStorage(),
    // The player's server by its public name; a local one is called as it is.
    model: httpModelClient(baseUrl === PLAYERS_SERVER ? routedFetch(PLAYERS_SERVER, model) : fetch),
    // The check's time limit races a real server, which the virtual clock cannot see.
    clock: virtualClock({ held: (ms) => ms === KEY_CHECK_TIMEOUT_MS }),
  };
  const submitted = gameActions.apiKeySubmitted('sk-mine');
  // The key check worker, from the key submitted to the key accepted, refused, or the reload.
  return expectSaga(checkKey, submitted)
    .withReducer(rootReducer, rootReducer(state(baseUrl), submitted))
    .provide({ getContext: (name, next) => (name in context ? context[name] : next()) })
    .run(false);
}

test('a server the page does not allow: the page reloads with it allowed, nothing is sent yet', async () => {
  const page = fakeConnectPage();
  const { storeState } = await submitKey(page);
  expect(page.reloads).toBe(1);
  expect(model.requests).toHaveLength(0);
  // Still 'Verifying...' while the page reloads; no error shown.
  expect(storeState.game).toMatchObject({ keyCheck: { status: 'checking' } });
  expect(readPendingKeyCheck(page.sessionStorage)).toMatchObject({
    provider: 'custom',
    model: 'fake-model',
    baseUrl: PLAYERS_SERVER,
    apiKey: 'sk-mine',
  });
});

test('after the reload the same check reaches the server and the key is accepted', async () => {
  const page = fakeConnectPage();
  await submitKey(page);
  const after = reloaded(page);
  const { storeState } = await submitKey(after);
  expect(after.reloads).toBe(0);
  expect(storeState.game).toMatchObject({ turn: { phase: 'home' }, apiKey: 'sk-mine' });
  expect(model.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
    'GET /v1/models',
    'POST /v1/chat/completions',
  ]);
});

test('a page that still does not allow it (cookies refused) does not reload again', async () => {
  const page = fakeConnectPage();
  page.writeCookie = () => undefined;
  await submitKey(page);
  const after = reloaded(page);
  await submitKey(after);
  expect(after.reloads).toBe(0);
});

test('a local server is in every page’s policy: no reload', async () => {
  const page = fakeConnectPage();
  const { storeState } = await submitKey(page, model.url);
  expect(page.reloads).toBe(0);
  expect(stageOf(storeState.game.turn)).toBe('loadOrCreate');
});

test('on a static host the check stops with the origin to allow: no reload, nothing sent', async () => {
  const page = fakeConnectPage('', 'https://game.example.test', {
    builtOrigins: [],
    widensByCookie: false,
  });
  const { storeState } = await submitKey(page);
  expect(page.reloads).toBe(0);
  expect(model.requests).toHaveLength(0);
  expect(readPendingKeyCheck(page.sessionStorage)).toBeNull();
  expect(storeState.game.keyCheck).toMatchObject({
    status: 'refused',
    error: 'originNotAllowed',
    detail: { origin: 'https://llm.example.test', ownServer: false, providerMessage: null },
  });
  // What the player chose is kept for the form (the settings the key screen shows).
  expect(storeState.settings).toMatchObject({ provider: 'custom', baseUrl: PLAYERS_SERVER });
});

test("on a static host a server the build's CONNECT_SRC names is called as it is", async () => {
  const page = fakeConnectPage('', 'https://game.example.test', {
    builtOrigins: ['https://llm.example.test'],
    widensByCookie: false,
  });
  const { storeState } = await submitKey(page);
  expect(page.reloads).toBe(0);
  expect(storeState.game).toMatchObject({ turn: { phase: 'home' }, apiKey: 'sk-mine' });
});

/**
 * A Redux DevTools session of the real store replays from its first action (DESIGN.md, State),
 * and shows no secret. The store is the app's (makeStore, its sagas, redux-persist's saved
 * settings), watched by a stand-in for the extension placed where the extension sits; the
 * session goes through the settings restore, a real wallet sign-in against the server (PGlite),
 * the backend API's cache, a settings change, the key check, the opening and a turn.
 */
import { devTools } from '../support/withDevToolsStandIn';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { UnknownAction } from '@reduxjs/toolkit';
import { baseApi } from '../../src/api/baseApi';
import { MASK, STREAM_ACTIONS, maskSecrets } from '../../src/app/devtools';
import { injectBackendApi, makeStore, rootReducer, type RootState } from '../../src/app/store';
import { gameActions, selectGameStage } from '../../src/features/game';
import type { CompletionRequest, ModelClient } from '../../src/features/llm';
import { resultsApi } from '../../src/features/leaderboard/resultsApi';
import { profileApi } from '../../src/features/profile/profileApi';
import { languageChosen, modelSettingsChosen } from '../../src/features/settings';
import { openStoriesDb } from '../../src/features/stories';
import { connectRequested, type WalletEnvironment } from '../../src/features/wallet';
import { systemClock } from '../../src/shared/sagaContext';
import { MemoryStorage, TestWallet } from '../fixtures/testWallet';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../server/support/databases';
import { plausibleResult } from '../server/support/results';
import { startTestServer, type TestServer } from '../server/support/testServer';
import { readDevToolsExport, replayStates, type DevToolsSession } from '../support/devtoolsExport';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const API_KEY = 'sk-live-devtools-0123456789abcdef';
const SETTINGS_KEY = 'persist:taleweaver/settings';
const OPTIONS = [
  { text: 'Follow the lantern light', risk: 'low', alignment: 'moral', traitAlignment: 'kind' },
  { text: 'Pick the lock', risk: 'high', alignment: 'immoral', traitAlignment: 'reckless' },
];
const ANSWERS = [
  { characterBio: 'A cartographer.', characterGender: 'female', characterQuirks: ['curious'] },
  { storyStart: 'Rain on the harbour.', options: OPTIONS, newStorySummary: 'Aria arrived.' },
  {
    storySegment: 'The lantern leads Aria to a hidden stair.',
    options: OPTIONS,
    storySummary: 'Aria found a hidden stair.',
  },
];

/** A model client that accepts the key and answers from the list, streamed in pieces. */
function scriptedModel(): ModelClient {
  const answers = [...ANSWERS];
  return {
    async complete(request: Omit<CompletionRequest, 'fetch'>) {
      const answer = answers.shift();
      if (!answer) throw new Error(`No answer scripted for: ${request.prompt.slice(0, 80)}`);
      const text = JSON.stringify(answer);
      for (let end = 24; end < text.length + 24; end += 24) request.onText?.(text.slice(0, end));
      return text;
    },
    listModels: async () => ({ data: [] }),
    checkKey: async () => {},
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let server: TestServer;
let storage: MemoryStorage;
let finalState: RootState;
let secrets: { token: string; signature: string };

beforeAll(async () => {
  injectBackendApi(baseApi);
  const [pglite] = testBackends();
  server = await startTestServer(pglite!);

  // What redux-persist wrote for an earlier visit: each field JSON-encoded inside one object.
  storage = new MemoryStorage();
  const saved = { language: 'kr', provider: 'groq', model: '', baseUrl: '' };
  storage.setItem(
    SETTINGS_KEY,
    JSON.stringify({
      ...Object.fromEntries(
        Object.entries(saved).map(([key, value]) => [key, JSON.stringify(value)]),
      ),
      _persist: JSON.stringify({ version: 1, rehydrated: true }),
    }),
  );

  const wallet = new TestWallet();
  const site = new URL(server.url);
  const walletEnvironment: WalletEnvironment = {
    discoverWallets: async () => [
      { info: { id: 'test', name: 'Test Wallet', icon: '' }, provider: wallet },
    ],
    storage,
    site: { host: site.host, origin: site.origin },
    reloadHome: () => {},
  };
  const store = makeStore({
    persist: true,
    backend: async () => server.backend,
    context: {
      walletEnvironment,
      storage,
      model: scriptedModel(),
      random: () => 0.5,
      // The page's clock: the wallet is checked once a second, as in the browser.
      clock: systemClock,
      connectPage: null,
      openStoriesDb: () => openStoriesDb(new IDBFactory()),
    },
  });
  try {
    await store.ready;
    store.dispatch(connectRequested());
    await until(() => store.getState().wallet.status === 'verified', 'the sign-in');
    const address = store.getState().wallet.address!;
    secrets = {
      token: storage.getItem(`auth_token_${address}`)!,
      signature: storage.getItem(`signature_${address}`)!,
    };
    // The backend API's cache: a query and a mutation sent as the wallet, which ask the wallet
    // for its token as they leave.
    await store.dispatch(profileApi.endpoints.getUser.initiate(address));
    await store.dispatch(
      resultsApi.endpoints.saveGameResult.initiate({ address, result: plausibleResult() }),
    );

    store.dispatch(languageChosen('en'));
    store.dispatch(modelSettingsChosen({ provider: 'groq', model: '', baseUrl: '' }));
    store.dispatch(gameActions.apiKeySubmitted(API_KEY));
    const stage = () => selectGameStage(store.getState());
    await until(() => stage() === 'loadOrCreate', 'the key check');
    store.dispatch(gameActions.newGameStarted());
    store.dispatch(gameActions.genreChosen('High Fantasy'));
    store.dispatch(gameActions.portraitChosen(5));
    store.dispatch(gameActions.characterNamed('Aria Vale'));
    await until(() => stage() === 'playing', 'the opening');
    await until(() => store.getState().game.story.options.length > 0, 'the options');
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    await until(
      () =>
        store.getState().game.story.turnCount === 1 &&
        store.getState().game.turn.phase !== 'writing',
      'the turn',
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // the auto-save's debounce, and the summary
    finalState = store.getState();
  } finally {
    store.stop();
  }
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server?.close(), STOP_TIMEOUT_MS);

const shownActions = () =>
  devTools.shown.map((message) => JSON.parse(message.action) as UnknownAction);

describe('the session as Redux DevTools records it', () => {
  test('starts with the saved settings restored, as one plain event, and keeps them', () => {
    // Only RTK Query's registration of its middleware (this test plugs the backend API in
    // before the store is made) may come first.
    const [first] = devTools.types.filter((type) => !type.startsWith('api/'));
    expect(first).toBe('settings/restored');
    expect(shownActions().find((action) => action.type === 'settings/restored')).toEqual({
      type: 'settings/restored',
      payload: { language: 'kr', provider: 'groq', model: '', baseUrl: '' },
    });
    expect(devTools.types.filter((type) => type.startsWith('persist/'))).toEqual([]);
    // The change was written back in redux-persist's format, for the next visit.
    const stored = JSON.parse(storage.getItem(SETTINGS_KEY)!) as Record<string, string>;
    expect(JSON.parse(stored.language!)).toBe('en');
    expect(JSON.parse(stored._persist!)).toEqual({ version: 1, rehydrated: true });
  });

  test('every action and state is plain JSON, named and hidden as configured', () => {
    expect(devTools.problems).toEqual([]);
    expect(devTools.options).toEqual(
      expect.objectContaining({
        name: 'Taleweaver',
        sanitizers: ['actionSanitizer', 'stateSanitizer'],
        replacer: true,
      }),
    );
    expect(devTools.types).toEqual(
      expect.arrayContaining([
        'wallet/signedIn',
        'settings/languageChosen',
        'game/apiKeyAccepted',
        'game/segmentStreamed',
        'api/executeQuery/fulfilled',
      ]),
    );
    // The stream reached the store but not the monitor.
    expect(devTools.hidden).toBeGreaterThan(0);
    expect(shownActions().filter((action) => STREAM_ACTIONS.includes(action.type))).toEqual([]);
  });

  test('shows no secret: not the API key, the auth token or the signature', () => {
    const everything = [
      ...devTools.shown.flatMap((message) => [message.action, message.state]),
      devTools.initialState,
      devTools.exportFile(),
    ].join('\n');
    expect(everything).toContain(MASK);
    for (const secret of [API_KEY, secrets.token, secrets.signature]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe('the sanitizers over the real state after sign-in', () => {
  test('mask the key in the game and the token in the wallet; the backend cache holds none', () => {
    expect(finalState.game.apiKey).toBe(API_KEY);
    const masked = maskSecrets(finalState);
    expect(masked.game.apiKey).toBe(MASK);
    // Requests sent as the wallet ask the wallet for its token as they leave: a query's
    // arguments (its cache key) and a mutation's (kept in its actions) name only the address.
    const address = finalState.wallet.address!;
    const queryKey = Object.keys(finalState.api!.queries).find((key) => key.startsWith('getUser('));
    expect(queryKey).toBe(`getUser("${address}")`);
    expect(finalState.api!.queries[queryKey!]?.originalArgs).toBe(address);
    expect(JSON.stringify(finalState.api)).not.toContain(secrets.token);
    const saving = shownActions().find((action) => action.type === 'api/executeMutation/pending');
    const savingArgs = (saving?.meta as { arg: { originalArgs: object } }).arg.originalArgs;
    expect(savingArgs).toEqual(expect.objectContaining({ address: finalState.wallet.address }));
    expect(savingArgs).not.toHaveProperty('token');
    // The session the wallet keeps in the store: its token masked.
    expect(finalState.wallet.session?.token).toBe(secrets.token);
    expect(masked.wallet.session?.token).toBe(MASK);
    const text = JSON.stringify(masked);
    for (const secret of [API_KEY, secrets.token, secrets.signature])
      expect(text).not.toContain(secret);
  });

  test('leave everything else as it is', () => {
    const masked = maskSecrets(finalState);
    expect(masked.game.story).toEqual(finalState.game.story);
    expect(masked.wallet).toEqual({
      ...finalState.wallet,
      session: { ...finalState.wallet.session, token: MASK },
    });
    expect(masked.settings).toEqual(finalState.settings);
  });
});

describe('the exported session', () => {
  let session: DevToolsSession<RootState>;
  beforeAll(() => {
    // Through the file, as a developer would attach it to a bug report.
    const file = JSON.parse(JSON.stringify(JSON.parse(devTools.exportFile())));
    session = readDevToolsExport<RootState>(file);
  });

  test('holds every action from the first one, the hidden stream too', () => {
    expect(session.preloadedState).toBeUndefined(); // maxAge did not drop anything
    expect(session.actions.map((action) => action.type)).toEqual(devTools.types);
  });

  test('replays into a fresh rootReducer: every state the monitor showed, from the first action', () => {
    const { initial, states } = replayStates(rootReducer, session);
    expect(maskSecrets(initial)).toEqual(JSON.parse(devTools.initialState!));
    const shownStates = session.actions
      .map((action, index) => ({ action, state: states[index]! }))
      .filter(({ action }) => !STREAM_ACTIONS.includes(action.type))
      .map(({ state }) => maskSecrets(state));
    expect(shownStates).toHaveLength(devTools.shown.length);
    shownStates.forEach((state, index) => {
      expect({ index, state }).toEqual({ index, state: JSON.parse(devTools.shown[index]!.state) });
    });
    // And the last state is the store's own, with its secrets masked (the export masks them).
    expect(states.at(-1)).toEqual(maskSecrets(finalState));
  });
});

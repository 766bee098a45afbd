/**
 * Redux DevTools on a real game in Chromium (DESIGN.md, State: a DevTools export must replay
 * from action 1). The app is a production build made with DevTools on (REDUX_DEVTOOLS=on: an
 * ordinary build leaves them out), served by a server of this spec's own; a stand-in for the
 * extension (test/support/devtoolsStandIn.ts) is put into the page before the app loads, and
 * records what the extension would be sent. The player signs in, enters the key for the fake
 * model server, sets up a story and plays a few turns, as the other journeys do. Then:
 * every action is plain JSON, no secret is anywhere in the recording or its export, the stream
 * actions are hidden, and the export replays in Node into a fresh rootReducer, state by state.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Browser, Page } from 'playwright-core';
import { baseApi } from '../../src/api/baseApi';
import {
  MASK,
  MAX_AGE,
  SHOW_STREAM_SWITCH,
  STREAM_ACTIONS,
  maskSecrets,
} from '../../src/app/devtools';
import { injectBackendApi, rootReducer, type RootState } from '../../src/app/store';
import { gameReply, startFakeModelServer, type FakeModelServer } from '../fixtures/fakeModelServer';
import { TestWallet } from '../fixtures/testWallet';
import { installDevToolsStandIn, type DevToolsStandIn } from '../support/devtoolsStandIn';
import { readDevToolsExport, replayStates } from '../support/devtoolsExport';
import { DESKTOP, collectPageErrors, launchBrowser } from './support/browser';
import { injectTestWallet } from './support/injectWallet';
import { connectAndEnterKey, setUpNewGame } from './support/journey';
// The endpoints the session's pages injected (the wallet's cloud list is read beside the saved
// stories): the replay's reducer knows them as the page's store did.
import '../../src/features/stories/cloud/cloudApi';
import { startServer, type RunningServer } from './support/server';

const API_KEY = 'sk-devtools-e2e-0123456789abcdef';
/** The most actions a turn may show in the monitor (issue 20), stream actions hidden. */
const ACTIONS_PER_TURN = 25;
/** A turn as the monitor shows it, in the game's words (the stream hidden). */
const TURN_STORY = [
  'game/choiceMade',
  'game/outcomeRolled',
  'game/scenarioPicked',
  'game/segmentReceived',
  'game/optionsOffered',
  'game/summaryStored',
];
/**
 * A turn is saved once it is written, last; and its roll before that when the segment takes
 * longer than the auto-save's wait (issue 22: a reload never rolls it again).
 */
const TURN_SAVED = 'stories/storySaved';
const TURNS = 4;
const projectRoot = path.resolve(__dirname, '..', '..');

let distDir: string;
let server: RunningServer;
let browser: Browser;
let model: FakeModelServer;

/** A production build with DevTools on, in a directory of its own (dist/ stays as it is). */
async function buildWithDevTools(dir: string): Promise<void> {
  if (!fs.existsSync(path.join(projectRoot, 'src/app/intl/compiled/en.json'))) {
    throw new Error("No compiled catalogues: run 'npm run build' (or npm run intl:compile) first");
  }
  const webpack = path.join(projectRoot, 'node_modules', '.bin', 'webpack');
  await promisify(execFile)(webpack, ['--mode', 'production'], {
    cwd: projectRoot,
    env: { ...process.env, REDUX_DEVTOOLS: 'on', DIST_DIR: dir },
    maxBuffer: 16 * 1024 * 1024,
  });
}

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-devtools-dist-'));
  await buildWithDevTools(distDir);
  [server, browser, model] = await Promise.all([
    startServer({ DIST_DIR: distDir, SIGN_IN_RATE_LIMIT: '1000' }),
    launchBrowser(),
    // Every answer streamed as a model writes it (about 1 s a reply): many frames, so many
    // stream actions between the ones the monitor shows.
    startFakeModelServer({
      validKeys: [API_KEY],
      replyWith: (body) => ({
        ...gameReply(body),
        pacing: { firstTokenDelayMs: 50, tokensPerSecond: 150 },
      }),
    }),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await model?.close();
  await server?.stop();
  fs.rmSync(distDir, { recursive: true, force: true });
});

type Recording = Omit<DevToolsStandIn, 'exportFile'> & { exported: string };

const recordingOf = (page: Page): Promise<Recording> =>
  page.evaluate(() => {
    const { exportFile, ...recording } = (
      window as unknown as { __DEVTOOLS_STAND_IN__: DevToolsStandIn }
    ).__DEVTOOLS_STAND_IN__;
    return { ...recording, exported: exportFile() };
  });

const receivedCount = (page: Page) =>
  page.evaluate(() => {
    const { received, hidden } = (window as unknown as { __DEVTOOLS_STAND_IN__: DevToolsStandIn })
      .__DEVTOOLS_STAND_IN__;
    return { shown: received - hidden, hidden };
  });

/** Waits until no action has reached the store for `quietMs` (the auto-save, the summary). */
async function settled(page: Page, quietMs = 700) {
  let last = await receivedCount(page);
  for (;;) {
    await page.waitForTimeout(quietMs);
    const now = await receivedCount(page);
    if (now.shown === last.shown && now.hidden === last.hidden) return now;
    last = now;
  }
}

/**
 * The app's root reducer as a session met it: the backend API's slice arrives with the code of
 * the routes that use it, so it is plugged in where the session's store got it, before the
 * first action of RTK Query (its middleware registers itself before passing anything on).
 */
function replayReducer() {
  let injected = false;
  return (state: RootState | undefined, action: UnknownAction): RootState => {
    if (!injected && action.type.startsWith(`${baseApi.reducerPath}/`)) {
      injectBackendApi(baseApi);
      injected = true;
    }
    return rootReducer(state, action);
  };
}

/**
 * RTK Query's reducer marks its middleware 'conflict' when the id in api/config/
 * middlewareRegistered is not its own API instance's, an id made at random as the code loads:
 * a replay in another process always reads 'conflict'. It feeds only RTK Query's warning that
 * its middleware is missing, so the replay takes it as registered.
 */
function asRegistered(state: RootState): RootState {
  if (state.api?.config.middlewareRegistered !== 'conflict') return state;
  return {
    ...state,
    api: { ...state.api, config: { ...state.api.config, middlewareRegistered: true } },
  };
}

test('a game in DevTools: plain JSON, no secret, the stream hidden, and the export replays', async () => {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  // Before the app's code runs, as the extension's page script is.
  await context.addInitScript(installDevToolsStandIn);
  await injectTestWallet(context, new TestWallet(11));
  const page = await context.newPage();
  const errors = collectPageErrors(page);

  await connectAndEnterKey(page, { url: server.url, model, apiKey: API_KEY });
  await setUpNewGame(page);
  const options = page.locator('.options__list button');
  await options.first().waitFor({ timeout: 20_000 });
  const opening = await settled(page);

  const perTurn: { shown: number; hidden: number }[] = [];
  let before = opening;
  for (let turn = 1; turn <= TURNS; turn += 1) {
    await options.first().click();
    await page.waitForFunction(() => !document.querySelector('.loading-overlay'), undefined, {
      timeout: 20_000,
    });
    await options.first().waitFor({ timeout: 20_000 });
    const after = await settled(page);
    perTurn.push({ shown: after.shown - before.shown, hidden: after.hidden - before.hidden });
    before = after;
  }

  const recording = await recordingOf(page);
  const secrets = await page.evaluate(() => {
    const address = window.localStorage.getItem('current_wallet_address') ?? '';
    return {
      token: window.localStorage.getItem(`auth_token_${address}`) ?? '',
      signature: window.localStorage.getItem(`signature_${address}`) ?? '',
    };
  });
  await context.close();

  const shownTypes = recording.shown.map(
    ({ action }) => (JSON.parse(action) as UnknownAction).type,
  );
  console.log(
    [
      `DevTools session: ${recording.received} actions reached the store, ${recording.hidden} of them stream actions hidden.`,
      `Up to the first options (sign-in, key check, setup, opening): ${opening.shown} shown, ${opening.hidden} hidden.`,
      ...perTurn.map(
        ({ shown, hidden }, i) =>
          `Turn ${i + 1}: ${shown} actions shown, ${hidden} stream actions hidden.`,
      ),
      `Shown action types: ${[...new Set(shownTypes)].join(', ')}`,
    ].join('\n'),
  );

  // A turn reads as a short story of events, and the monitor's history keeps a whole game.
  let start = opening.shown;
  perTurn.forEach(({ shown }) => {
    const types = shownTypes.slice(start, start + shown);
    start += shown;
    expect(shown).toBeLessThanOrEqual(ACTIONS_PER_TURN);
    expect(types.filter((type) => TURN_STORY.includes(type))).toEqual(TURN_STORY);
    const saves = types.filter((type) => type === TURN_SAVED).length;
    expect(saves).toBeGreaterThanOrEqual(1);
    expect(saves).toBeLessThanOrEqual(2);
    expect(types.indexOf(TURN_SAVED)).toBeGreaterThan(types.indexOf('game/scenarioPicked'));
    expect(types.at(-1)).toBe(TURN_SAVED);
  });

  // The session starts where the store does: the saved settings restored, as one plain event.
  expect(recording.types[0]).toBe('settings/restored');
  // Configured as the store asks, and nothing the stand-in could not take as plain JSON.
  expect(recording.options).toEqual(
    expect.objectContaining({ name: 'Taleweaver', maxAge: MAX_AGE, replacer: true }),
  );
  expect(recording.problems).toEqual([]);
  expect(errors).toEqual([]);
  for (const { action, state } of recording.shown) {
    expect(JSON.stringify(JSON.parse(action))).toBe(action);
    expect(JSON.stringify(JSON.parse(state))).toBe(state);
  }

  // No secret anywhere: not in what the monitor was sent, not in the export.
  expect(secrets.token).not.toBe('');
  expect(secrets.signature).not.toBe('');
  const everything = JSON.stringify(recording);
  expect(everything).toContain(MASK);
  for (const secret of [API_KEY, secrets.token, secrets.signature]) {
    expect(everything).not.toContain(secret);
  }

  // The stream reached the store, and the monitor never saw it.
  expect(recording.types.filter((type) => STREAM_ACTIONS.includes(type)).length).toBeGreaterThan(0);
  expect(shownTypes.filter((type) => STREAM_ACTIONS.includes(type))).toEqual([]);

  // The export replays from its first action, in Node, into a fresh rootReducer.
  const session = readDevToolsExport<RootState>(recording.exported);
  expect(session.preloadedState).toBeUndefined(); // nothing dropped by maxAge
  expect(session.actions.map((action) => action.type)).toEqual(recording.types);
  const { initial, states } = replayStates(replayReducer(), session);
  expect(maskSecrets(initial)).toEqual(JSON.parse(recording.initialState!));
  const replayedShown = session.actions
    .map((action, index) => ({ action, state: states[index]! }))
    .filter(({ action }) => !STREAM_ACTIONS.includes(action.type));
  expect(replayedShown).toHaveLength(recording.shown.length);
  replayedShown.forEach(({ action, state }, index) => {
    expect({ index, type: action.type, state: maskSecrets(asRegistered(state)) }).toEqual({
      index,
      type: action.type,
      state: JSON.parse(recording.shown[index]!.state),
    });
  });
}, 180_000);

test('with the one switch on, the monitor is shown the stream actions too', async () => {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  await context.addInitScript(installDevToolsStandIn);
  await context.addInitScript((key) => window.localStorage.setItem(key, '1'), SHOW_STREAM_SWITCH);
  await injectTestWallet(context, new TestWallet(12));
  const page = await context.newPage();
  await connectAndEnterKey(page, { url: server.url, model, apiKey: API_KEY });
  await setUpNewGame(page);
  await page.locator('.options__list button').first().waitFor({ timeout: 20_000 });
  const recording = await recordingOf(page);
  await context.close();

  expect(recording.options?.actionsDenylist).toBeUndefined();
  expect(recording.hidden).toBe(0);
  const shownTypes = recording.shown.map(
    ({ action }) => (JSON.parse(action) as UnknownAction).type,
  );
  expect(shownTypes.filter((type) => STREAM_ACTIONS.includes(type)).length).toBeGreaterThan(0);
});

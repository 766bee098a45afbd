/**
 * A provider's limits as the game meets them (DESIGN.md, "Limits read from the answer"),
 * each flow run as its worker with expectSaga over the root reducer, ending with it, against
 * the strict Groq and OpenAI fakes:
 * a per-minute limit is waited out for exactly as long as the answer says, a daily cap and a
 * key without credit stop at once with what happened, and a request too large is trimmed once.
 * The fake's clock is the saga's, a virtual clock: every wait the saga takes moves it on, in no
 * wall time, so "no request before the stated time" is checked against the fake's own record.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import {
  KEY_CHECK_TIMEOUT_MS,
  checkKey,
  flowFor,
  gameActions,
  stageOf,
} from '../../../src/features/game';
import { providerById, httpModelClient } from '../../../src/features/llm';
import type { SettingsState } from '../../../src/features/settings';
import {
  startFakeModelServer,
  userPrompt,
  type FakeModelServer,
  type FakeModelServerOptions,
} from '../../fixtures/fakeModelServer';
import {
  PLAYING_GAME,
  appStateWith,
  type GameAt,
  keyProblemOf,
  playingWith,
  turnProblemOf,
} from '../../fixtures/games';
import { routedFetch } from '../../fixtures/routedFetch';
import { MemoryStorage } from '../../fixtures/testWallet';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';
import { SERVER_TIMEOUT_MS } from '../../support/timeouts';

// Every test here starts a fake model server (the afterEach closes it): the limit of a test and of a
// hook in this file, for a loaded two-core machine (test/support/timeouts.ts).
jest.setTimeout(SERVER_TIMEOUT_MS);

const KEY = 'gsk_free_tier_key_0123456789';
const GROQ = { provider: 'groq', model: 'openai/gpt-oss-120b' };

let server: FakeModelServer;
/**
 * The fake's clock and the saga's, moved on by every wait the saga takes. The key check's time
 * limit races the real server, which the clock cannot see: it is held.
 */
let clock: VirtualClock;
/** The waits the saga took, in ms. */
let waits: number[];

beforeEach(() => {
  clock = virtualClock({ start: 1_000_000, held: (ms) => ms === KEY_CHECK_TIMEOUT_MS });
  waits = clock.slept;
});
afterEach(() => server?.close());

async function start(options: FakeModelServerOptions) {
  server = await startFakeModelServer({ validKeys: [KEY], now: () => clock.now(), ...options });
}

function saga(settings: Partial<SettingsState>, game: GameAt = PLAYING_GAME) {
  const provider = providerById(settings.provider);
  const state = appStateWith({ apiKey: KEY, ...game }, settings);
  return {
    /** The flow `action` starts, run as its worker from the state the store reduced it to. */
    flowFrom: (action: UnknownAction) =>
      expectSaga(flowFor(action)!)
        .withReducer(rootReducer, rootReducer(state, action))
        .provide({
          getContext(name: string, next: () => unknown) {
            if (name === 'random') return seededRng(3);
            if (name === 'clock') return clock;
            if (name === 'connectPage') return null;
            if (name === 'storage') return new MemoryStorage();
            if (name === 'model') return httpModelClient(routedFetch(provider.baseUrl, server));
            return next();
          },
        } as never),
  };
}

const chats = () => server.requests.filter((request) => request.method === 'POST');

/** Groq's own words for a limit, as its 429 says them. */
const groqLimit = (limit: string, wait: string) =>
  'Rate limit reached for model `openai/gpt-oss-120b` in organization `org_x` service tier ' +
  `\`on_demand\` on ${limit}: Limit 1000, Used 1000, Requested 1. Please try again in ${wait}. ` +
  'Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing';

describe('a per-minute limit', () => {
  test('is waited out for exactly the stated time and a little jitter, then the turn goes on', async () => {
    await start({ profile: 'groq' });
    server.enqueue({
      status: 429,
      code: 'rate_limit_exceeded',
      errorMessage: groqLimit('tokens per minute (TPM)', '7.66s'),
    });
    const result = await saga(GROQ)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .put.like({ action: { type: gameActions.turnRetryScheduled.type } })
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .run(false);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(7660 + 100);
    expect(waits[0]).toBeLessThanOrEqual(7660 + 500);
    expect(chats().map((request) => request.status)).toEqual([429, 200]);
    expect(result.storeState.game.turn).toEqual({ phase: 'choosing' });
  });

  test('the free tier: no request goes out before the time its 429 stated', async () => {
    await start({ profile: 'groq', freeTier: { requestsPerMinute: 1 } });
    // Another tab's request has taken this minute's one request.
    await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: GROQ.model, messages: [], max_tokens: 10 }),
    });
    await clock.advance(20_000);
    await saga(GROQ)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .run(false);
    const [, refused, accepted] = chats();
    expect(refused?.status).toBe(429);
    expect(accepted?.status).toBe(200);
    // It said 40s (the minute of the first request), and the saga waited at least that.
    expect(waits[0]).toBeGreaterThanOrEqual(40_000);
  });

  test('an answer that names no wait is waited the spec 5 seconds', async () => {
    await start({ profile: 'groq' });
    server.enqueue({ status: 429, errorMessage: 'Too many requests' });
    await saga(GROQ)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .run(false);
    expect(waits).toEqual([5000]);
  });
});

describe('limits that waiting does not help', () => {
  test('a daily cap stops the turn at once, saying when it resets', async () => {
    await start({ profile: 'groq' });
    server.enqueue({
      status: 429,
      code: 'rate_limit_exceeded',
      errorMessage: groqLimit('requests per day (RPD)', '2h5m3s'),
    });
    const result = await saga(GROQ)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .run(false);
    const { game } = result.storeState;
    expect(game.turn.phase).toBe('failed');
    expect(turnProblemOf(game)).toMatchObject({
      reason: 'dailyLimit',
      provider: 'groq',
      model: GROQ.model,
      limitMetric: 'requests',
      status: 429,
    });
    // Told in the saga's clock, which the fake's is.
    const resetsIn = turnProblemOf(game)!.resetsAt! - clock.now();
    expect(resetsIn).toBeGreaterThan(7_503_000 - 60_000);
    expect(resetsIn).toBeLessThanOrEqual(7_503_000);
    expect(waits).toEqual([]);
    expect(chats()).toHaveLength(1);
  });

  test('a key without credit stops the game, and the key check refuses it', async () => {
    await start({ profile: 'openai', noCreditKeys: [KEY] });
    const openai = { provider: 'openai', model: 'gpt-5-mini' };
    const turn = await saga(openai)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .run(false);
    expect(turnProblemOf(turn.storeState.game)).toMatchObject({ reason: 'noCredit', status: 429 });
    expect(chats()).toHaveLength(1);

    const check = await saga(openai, { turn: { phase: 'keyNeeded' }, apiKey: '' })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);
    expect(check.storeState.game.keyCheck).toMatchObject({ status: 'refused', error: 'noCredit' });
    expect(stageOf(check.storeState.game.turn)).toBe('apiKeyInput');
  });

  test('the key check accepts a key at a per-minute limit, not a model at its daily cap', async () => {
    await start({ profile: 'groq' });
    server.enqueue({ status: 429, errorMessage: groqLimit('tokens per minute (TPM)', '3s') });
    const minute = await saga(GROQ, { turn: { phase: 'keyNeeded' }, apiKey: '' })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);
    expect(stageOf(minute.storeState.game.turn)).toBe('loadOrCreate');

    server.enqueue({ status: 429, errorMessage: groqLimit('tokens per day (TPD)', '9m38.016s') });
    const daily = await saga(GROQ, { turn: { phase: 'keyNeeded' }, apiKey: '' })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);
    expect(daily.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'dailyLimit',
    });
    expect(keyProblemOf(daily.storeState.game)).toMatchObject({ limitMetric: 'tokens' });
  });
});

describe('a request too large', () => {
  const TOO_LARGE =
    'Request too large for model `openai/gpt-oss-120b` in organization `org_x` service tier ' +
    '`on_demand` on tokens per minute (TPM): Limit 8000, Requested 9123, please reduce your ' +
    'message size and try again.';
  const longStory = playingWith({
    storySummary: Array.from({ length: 30 }, (_, i) => `Summary ${i + 1}: Aria walked on.`),
  });

  test('is asked once more with less of the story so far, then goes on', async () => {
    await start({ profile: 'groq' });
    server.enqueue({ status: 413, errorMessage: TOO_LARGE });
    const result = await saga(GROQ, longStory)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .run(false);
    const [first, second] = chats().map((request) => userPrompt(request.body));
    expect(second!.length).toBeLessThan(first!.length);
    expect(second).toContain('Summary 30: Aria walked on.');
    expect(result.storeState.game.turn).toEqual({ phase: 'choosing' });
  });

  test('twice is told as too large', async () => {
    await start({ profile: 'groq' });
    server.enqueue(
      { status: 413, errorMessage: TOO_LARGE },
      { status: 413, errorMessage: TOO_LARGE },
    );
    const result = await saga(GROQ, longStory)
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .run(false);
    expect(turnProblemOf(result.storeState.game)).toMatchObject({ reason: 'requestTooLarge' });
    expect(chats()).toHaveLength(2);
  });
});

describe('the key form without a verified wallet', () => {
  test("says 'Please connect your wallet first to use the API.' (walletNotVerified)", async () => {
    await start({ profile: 'groq' });
    const submitted = gameActions.apiKeySubmitted(KEY);
    const state = appStateWith({ turn: { phase: 'keyNeeded' }, apiKey: '' }, GROQ);
    // Connected, still signing the sign-in message: not verified yet.
    state.wallet = { ...state.wallet, status: 'signing' };
    const result = await expectSaga(checkKey, submitted)
      .withReducer(rootReducer, rootReducer(state, submitted))
      .put(gameActions.apiKeyRejected({ error: 'walletNotVerified' }))
      .run(false);
    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'walletNotVerified',
    });
    expect(chats()).toHaveLength(0);
  });
});

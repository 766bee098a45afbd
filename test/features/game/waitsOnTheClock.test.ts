/**
 * Every wait a flow takes is on the saga context's clock (DESIGN.md, "State and side effects":
 * every wait goes through the context's clock, so a test owns time). With a virtual clock, a
 * 429 whose answer says to wait 7 s is replayed with expectSaga in no wall time, the retry going
 * out once the clock has moved past the stated wait; the key check's time limit runs out on the
 * clock against a provider that never answers, and a check that answers first leaves no wait
 * behind. The page's own clock clears the timer of a wait that was given up.
 */
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { call, cancel, fork, put } from 'typed-redux-saga';
import { rootReducer } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import { KEY_CHECK_TIMEOUT_MS, checkKey, gameActions, playTurn } from '../../../src/features/game';
import { httpModelClient, type ModelClient } from '../../../src/features/llm';
import { systemClock } from '../../../src/shared/sagaContext';
import { debounceOn, wait } from '../../../src/shared/waits';
import { startFakeModelServer, type FakeModelServer } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith } from '../../fixtures/games';
import { contextProviders } from '../../support/sagaReplay';
import { virtualClock } from '../../support/virtualClock';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../support/timeouts';

/** Less than any wait these tests replay: what "no wall time" means here. */
const WALL_MS = 3000;

describe('a 429 that says how long to wait', () => {
  let server: FakeModelServer;
  beforeEach(async () => {
    server = await startFakeModelServer();
  }, SERVER_TIMEOUT_MS);
  afterEach(() => server.close(), STOP_TIMEOUT_MS);

  test('Retry-After: 7 is waited out on the clock, then the turn is asked again, in no wall time', async () => {
    const clock = virtualClock();
    server.enqueue({ status: 429, retryAfter: '7' });
    /** When each chat request went out, on the saga's clock. */
    const sentAt: number[] = [];
    const fetchOnTheClock: typeof fetch = (input, init) => {
      if (init?.method === 'POST') sentAt.push(clock.now());
      return fetch(input, init);
    };
    const chosen = gameActions.choiceMade({ index: 0 });
    const state = appStateWith(PLAYING_GAME, {
      provider: 'custom',
      model: 'fake-model',
      baseUrl: server.url,
    });
    const started = Date.now();

    const result = await expectSaga(playTurn, chosen)
      .withReducer(rootReducer, rootReducer(state, chosen))
      .provide(
        contextProviders({
          model: httpModelClient(fetchOnTheClock),
          random: seededRng(3),
          clock,
        }),
      )
      .run(false);

    expect(Date.now() - started).toBeLessThan(WALL_MS);
    const [refused, retried] = sentAt;
    expect(sentAt).toHaveLength(2);
    // The stated 7 s and its jitter (100-500 ms), waited once, before the retry went out.
    expect(clock.slept).toHaveLength(1);
    expect(clock.slept[0]).toBeGreaterThanOrEqual(7000 + 100);
    expect(clock.slept[0]).toBeLessThanOrEqual(7000 + 500);
    expect(retried! - refused!).toBe(clock.slept[0]);
    // The countdown the player saw ended when the retry went out.
    const scheduled = result.effects.put
      .map((effect) => effect.payload.action)
      .find(gameActions.turnRetryScheduled.match);
    // What the request asked again reserves of the minute: its prompt and output limit.
    expect(scheduled?.payload).toEqual({
      reason: 'rateLimited',
      attempt: 1,
      retryAt: retried,
      reserves: expect.any(Number),
    });
    expect(scheduled?.payload.reserves).toBeGreaterThan(1000);
    expect(result.storeState.game).toMatchObject({
      story: { turnCount: 1 },
      turn: { phase: 'choosing' },
    });
  });
  test("Retry-After as a date is counted from the context's clock, not the wall clock's", async () => {
    // A day long past by the wall clock: a wait counted from Date.now() would be none at all.
    const start = Date.UTC(2001, 0, 1, 12);
    const clock = virtualClock({ start });
    server.enqueue({ status: 429, retryAfter: new Date(start + 7000).toUTCString() });
    const chosen = gameActions.choiceMade({ index: 0 });
    const state = appStateWith(PLAYING_GAME, {
      provider: 'custom',
      model: 'fake-model',
      baseUrl: server.url,
    });

    const result = await expectSaga(playTurn, chosen)
      .withReducer(rootReducer, rootReducer(state, chosen))
      .provide(contextProviders({ model: httpModelClient(), random: seededRng(3), clock }))
      .run(false);

    // The stated 7 s from the clock's now, and its jitter (100-500 ms), waited once.
    expect(clock.slept).toHaveLength(1);
    expect(clock.slept[0]).toBeGreaterThanOrEqual(7000 + 100);
    expect(clock.slept[0]).toBeLessThanOrEqual(7000 + 500);
    const scheduled = result.effects.put
      .map((effect) => effect.payload.action)
      .find(gameActions.turnRetryScheduled.match);
    expect(scheduled?.payload.retryAt).toBe(start + clock.slept[0]!);
    expect(result.storeState.game).toMatchObject({ turn: { phase: 'choosing' } });
  });
});

describe("the key check's time limit", () => {
  const submitted = gameActions.apiKeySubmitted('sk-live');
  const keyScreen = appStateWith(
    { turn: { phase: 'keyNeeded' }, apiKey: '' },
    { provider: 'custom', model: 'fake-model', baseUrl: 'http://127.0.0.1:9/v1' },
  );

  /** A provider that lists its model, then answers the key check when `answer` says. */
  function provider(answer: (signal: AbortSignal) => Promise<void>) {
    const aborted: boolean[] = [];
    const model: ModelClient = {
      complete: () => Promise.reject(new Error('not asked in a key check')),
      listModels: async () => ({ object: 'list', data: [{ id: 'fake-model', object: 'model' }] }),
      checkKey: (request) => {
        const { signal } = request as { signal: AbortSignal };
        signal.addEventListener('abort', () => aborted.push(true), { once: true });
        return answer(signal);
      },
    };
    return { model, aborted };
  }

  test('a provider that never answers: the check fails when the limit has passed on the clock', async () => {
    const clock = virtualClock();
    const { model, aborted } = provider(() => new Promise<void>(() => undefined));
    const started = Date.now();

    const result = await expectSaga(checkKey, submitted)
      .withReducer(rootReducer, rootReducer(keyScreen, submitted))
      .provide(contextProviders({ model, clock }))
      .run(false);

    expect(Date.now() - started).toBeLessThan(WALL_MS);
    expect(clock.now()).toBe(KEY_CHECK_TIMEOUT_MS);
    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'keyCheckFailed',
      detail: { reason: 'noAnswer' },
    });
    // The request that did not answer was given up.
    expect(aborted).toEqual([true]);
  });

  test('a check that answers in time ends the race: no time passes, and no wait is left', async () => {
    const clock = virtualClock();
    const { model, aborted } = provider(async () => {});

    const result = await expectSaga(checkKey, submitted)
      .withReducer(rootReducer, rootReducer(keyScreen, submitted))
      .provide(contextProviders({ model, clock }))
      .run(false);

    expect(result.storeState.game).toMatchObject({
      turn: { phase: 'home' },
      keyCheck: { status: 'idle' },
    });
    expect(clock.slept).toEqual([KEY_CHECK_TIMEOUT_MS]);
    expect(clock.pending()).toBe(0);
    expect(clock.now()).toBe(0);
    expect(aborted).toEqual([]);
  });
});

describe('a debounce on the clock (debounceOn)', () => {
  test('the worker runs with the last action of each burst, once the quiet has lasted', async () => {
    const clock = virtualClock();
    const runs: [string, number, number][] = [];
    function* worker(label: string, action: { type: string; payload: number }) {
      runs.push([label, action.payload, yield* call([clock, clock.now])]);
    }
    const change = (payload: number) => ({ type: 'story/changed', payload });
    function* played() {
      const debounced = yield* fork(debounceOn, 100, 'story/changed', worker, 'save');
      yield* put(change(1));
      yield* put(change(2));
      yield* call(wait, 50);
      yield* put(change(3)); // 50 ms after the last: the quiet starts again
      yield* call(wait, 300);
      yield* put(change(4));
      yield* call(wait, 150);
      yield* cancel(debounced);
    }

    await expectSaga(played)
      .provide([[matchers.getContext('clock'), clock]])
      .run(false);

    expect(runs).toEqual([
      ['save', 3, 150],
      ['save', 4, 450],
    ]);
    expect(clock.pending()).toBe(0);
  });
});

describe("the page's clock", () => {
  afterEach(() => jest.useRealTimers());

  test('a wait ends after its time; one given up clears its timer', async () => {
    jest.useFakeTimers();
    const ended: string[] = [];
    void systemClock.sleep(1000).then(() => ended.push('kept'));
    const givenUp = new AbortController();
    void systemClock.sleep(1000, givenUp.signal).then(() => ended.push('given up'));
    expect(jest.getTimerCount()).toBe(2);

    givenUp.abort();
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(ended).toEqual(['kept']);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('the virtual clock (test/support/virtualClock.ts)', () => {
  test('waits side by side end in the order they are due, each at its own time', async () => {
    const clock = virtualClock();
    const ended: [string, number][] = [];
    const later = clock.sleep(2000).then(() => ended.push(['2 s', clock.now()]));
    const sooner = clock.sleep(1000).then(() => ended.push(['1 s', clock.now()]));
    await Promise.all([later, sooner]);
    expect(ended).toEqual([
      ['1 s', 1000],
      ['2 s', 2000],
    ]);
  });

  test('time does not pass a held wait by itself; advance does', async () => {
    const clock = virtualClock({ held: (ms) => ms === KEY_CHECK_TIMEOUT_MS });
    const ended: string[] = [];
    void clock.sleep(KEY_CHECK_TIMEOUT_MS).then(() => ended.push('held'));
    void clock.sleep(KEY_CHECK_TIMEOUT_MS + 1).then(() => ended.push('after it'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual([]);
    expect(clock.now()).toBe(0);

    await clock.advance(KEY_CHECK_TIMEOUT_MS);
    expect(ended).toEqual(['held']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual(['held', 'after it']);
    expect(clock.now()).toBe(KEY_CHECK_TIMEOUT_MS + 1);
  });
});

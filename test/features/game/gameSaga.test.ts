/**
 * The game's flows replayed with expectSaga over the real reducers, against the fake
 * OpenAI-compatible server (the one edge faked: the language-model provider).
 */
import { Tuple, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import delayP from '@redux-saga/delay-p';
import { expectSaga } from 'redux-saga-test-plan';
import { endingScore } from '../../../src/engine/score';
import { seededRng } from '../../../src/engine/random';
import { initialSettingsState } from '../../../src/features/settings';
import { initialProviderSessionState } from '../../../src/features/llm';
import {
  canChoose,
  gameActions,
  initialGameState,
  type GameState,
  type StoryEntry,
} from '../../../src/features/game/gameSlice';
import {
  initialPlayerStatsState,
  scoreComputed,
} from '../../../src/features/game/playerStatsSlice';
import { gameSaga } from '../../../src/features/game/sagas/gameSaga';
import { PLAYING_GAME, VERIFIED_WALLET, gameSagaReducer } from '../../fixtures/games';
import { MemoryStorage } from '../../fixtures/testWallet';
import {
  startFakeModelServer,
  userPrompt,
  type FakeModelServer,
} from '../../fixtures/fakeModelServer';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => {
  model.requests.length = 0;
});

function stateWith(game: Partial<GameState>, language: 'en' | 'kr' = 'en') {
  return {
    settings: {
      ...initialSettingsState,
      language,
      provider: 'custom',
      // Listed by the fake server's GET /models, so the key check keeps it.
      model: 'fake-model',
      baseUrl: model.url,
    },
    providerSession: initialProviderSessionState,
    game: { ...initialGameState, apiKey: 'sk-test', ...game },
    playerStats: initialPlayerStatsState,
    wallet: VERIFIED_WALLET,
  };
}

const storage = new MemoryStorage();

/** The waits for the model pass at once here; the key check's 30 s time limit stays real. */
const providers = {
  call(effect: { fn: unknown; args: unknown[] }, next: () => unknown) {
    return effect.fn === delayP && Number(effect.args[0]) < 20_000 ? null : next();
  },
  getContext(name: string, next: () => unknown) {
    if (name === 'rng') return seededRng(7);
    if (name === 'storage') return storage;
    return next();
  },
};

const run = (game: Partial<GameState>, language: 'en' | 'kr' = 'en') =>
  expectSaga(gameSaga)
    .withReducer(gameSagaReducer, stateWith(game, language))
    .provide(providers as never);

describe('the key check', () => {
  test('an OK answer accepts the key and keeps it under the spec key', async () => {
    const result = await run({ stage: 'apiKeyInput', apiKey: '' })
      .dispatch(gameActions.apiKeySubmitted('sk-live'))
      .put(gameActions.apiKeyAccepted('sk-live'))
      .silentRun(500);
    expect(result.storeState.game.stage).toBe('loadOrCreate');
    expect(storage.getItem('apiKey')).toBe('sk-live');
    // The provider's model list first (issue 11), then the spec's key check.
    const [list, request] = model.requests;
    expect(list).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(list?.headers.authorization).toBe('Bearer sk-live');
    expect(
      result.storeState.providerSession.listed?.models.map((m: { id: string }) => m.id),
    ).toContain('fake-model');
    expect(request?.headers.authorization).toBe('Bearer sk-live');
    expect(request?.body).toEqual(expect.objectContaining({ max_tokens: 256 }));
    expect(userPrompt(request!.body)).toBe('hi');
  });

  test('a refused key says it is invalid', async () => {
    model.enqueue({ status: 401, errorMessage: 'Invalid API key' });
    const result = await run({ stage: 'apiKeyInput', apiKey: '' })
      .dispatch(gameActions.apiKeySubmitted('sk-wrong'))
      .silentRun(500);
    expect(result.storeState.game.error).toBe('invalidApiKey');
  });

  test('an empty key is refused without asking the provider', async () => {
    const result = await expectSaga(gameSaga)
      .withReducer(gameSagaReducer, {
        ...stateWith({ stage: 'apiKeyInput', apiKey: '' }),
        settings: { ...initialSettingsState, provider: 'groq' },
      })
      .dispatch(gameActions.apiKeySubmitted('   '))
      .silentRun(300);
    expect(result.storeState.game.error).toBe('emptyApiKey');
    expect(model.requests).toHaveLength(0);
  });
});

describe('the opening', () => {
  test('profile, opening scene and summary, with progress, then playing', async () => {
    const result = await run({ stage: 'characterSelection' })
      .dispatch(gameActions.characterNamed('Aria Vale'))
      .put.like({ action: { type: gameActions.characterProfileReceived.type } })
      .put(gameActions.openingProgressed(75))
      .put.like({ action: { type: gameActions.openingReceived.type } })
      .put.like({ action: { type: gameActions.openingSummaryReceived.type } })
      .silentRun(2000);
    const game = result.storeState.game;
    expect(game.stage).toBe('playing');
    expect(game.loadingProgress).toBe(100);
    expect(game.characterTraits).toHaveLength(5);
    expect(game.options.length).toBeGreaterThanOrEqual(2);
    expect(game.storySummary).toHaveLength(1);
    expect(game.characterGender).toBe('female');
    // Gender from the name, the profile, the opening scene, its summary.
    expect(model.requests).toHaveLength(4);
  });

  test('an unreadable opening scene is asked again 5 times, then the spec error', async () => {
    model.enqueue(
      { json: { gender: 'female' } },
      {
        json: {
          characterQuirks: ['a', 'b', 'c', 'd', 'e'],
          characterGender: 'female',
          characterBio: 'Bio.',
          characterFacialFeatures: [],
        },
      },
      ...Array.from({ length: 6 }, () => ({ json: 'not json at all' })),
    );
    const result = await run({ stage: 'characterSelection' })
      .dispatch(gameActions.characterNamed('Aria Vale'))
      .put(gameActions.turnRetryScheduled({ reason: 'unreadableReply', attempt: 5, retryAt: null }))
      .put.like({
        action: { type: gameActions.turnFailed.type, payload: { reason: 'retriesExhausted' } },
      })
      .silentRun(2000);
    expect(result.storeState.game.error).toBe('openingFailed');
    expect(model.requests).toHaveLength(8);
  });

  test('the opening summary is asked for up to 10 more times', async () => {
    model.enqueue(
      { json: { gender: 'male' } },
      {
        json: {
          characterQuirks: ['a', 'b', 'c', 'd', 'e'],
          characterGender: 'male',
          characterBio: 'Bio.',
          characterFacialFeatures: [],
        },
      },
      {
        json: {
          storyStart: 'A door.',
          options: [{ text: 'Open it', risk: 'low', alignment: 'neutral' }],
        },
      },
      ...Array.from({ length: 11 }, () => ({ json: { newStorySummary: '' } })),
    );
    const result = await run({ stage: 'characterSelection' })
      .dispatch(gameActions.characterNamed('Tomas Reed'))
      .put(
        gameActions.turnRetryScheduled({ reason: 'unreadableReply', attempt: 10, retryAt: null }),
      )
      .put.like({
        action: { type: gameActions.turnFailed.type, payload: { reason: 'retriesExhausted' } },
      })
      .silentRun(2500);
    expect(result.storeState.game.error).toBe('openingFailed');
    expect(model.requests).toHaveLength(3 + 11);
  });
});

describe('a turn', () => {
  test('two 429s are waited out (visibly), then the segment and its summary arrive', async () => {
    model.enqueue({ status: 429, retryAfter: '2' }, { status: 429 });
    const result = await run(PLAYING_GAME)
      .dispatch(gameActions.choiceMade({ index: 1 }))
      .put.like({ action: { type: gameActions.choiceSubmitted.type } })
      .put.like({
        action: {
          type: gameActions.turnRetryScheduled.type,
          payload: { reason: 'rateLimited', attempt: 1 },
        },
      })
      .put.like({
        action: {
          type: gameActions.turnRetryScheduled.type,
          payload: { reason: 'rateLimited', attempt: 2 },
        },
      })
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .put.like({ action: { type: gameActions.segmentSummarized.type } })
      .silentRun(2000);
    const game = result.storeState.game;
    expect(game.turnCount).toBe(1);
    expect(game.isLoading).toBe(false);
    expect(game.wait).toBeNull();
    expect(game.storyLog.map((entry: StoryEntry) => entry.kind)).toEqual([
      'paragraph',
      'choice',
      'paragraph',
    ]);
    // The stats follow the game's own roll for the low-risk, moral, in-character choice.
    expect(result.storeState.playerStats.playerStats).toEqual(
      expect.objectContaining({ moralScore: 10, traitConsistency: 5 }),
    );
  });

  test('a provider error stops loading with the spec message; Try again plays the same turn', async () => {
    model.enqueue({ status: 500, errorMessage: 'upstream exploded' });
    const result = await run(PLAYING_GAME)
      .dispatch(gameActions.choiceMade({ index: 0 }))
      .put.like({ action: { type: gameActions.turnFailed.type } })
      .delay(200)
      .dispatch(gameActions.turnRetryRequested())
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .silentRun(2000);
    const game = result.storeState.game;
    expect(game.error).toBeNull();
    expect(game.turnCount).toBe(1);
    expect(game.storyLog.filter((entry: StoryEntry) => entry.kind === 'choice')).toHaveLength(1);
  });

  test('a summary the provider cannot give does not fail the turn', async () => {
    model.enqueue(
      {
        json: {
          storySegment: 'The gate creaks open onto a moonlit courtyard full of statues.',
          options: [{ text: 'Walk in', risk: 'low', alignment: 'neutral' }],
        },
      },
      { status: 500, errorMessage: 'summary service down' },
    );
    const result = await run(PLAYING_GAME)
      .dispatch(gameActions.choiceMade({ index: 0 }))
      .put(
        gameActions.segmentSummarized(
          'The gate creaks open onto a moonlit courtyard full of statues.',
        ),
      )
      .silentRun(1500);
    expect(result.storeState.game.error).toBeNull();
    expect(result.storeState.game.options).toHaveLength(1);
  });

  test('Cancel during a slow reply stops the turn and aborts the request', async () => {
    model.enqueue({
      json: { storySegment: 'x'.repeat(400), options: [] },
      stream: true,
      chunkDelayMs: 100,
      chunkChars: 4,
    });
    const result = await run(PLAYING_GAME)
      .dispatch(gameActions.choiceMade({ index: 0 }))
      .delay(300)
      .dispatch(gameActions.waitCancelled())
      .silentRun(1000);
    const game = result.storeState.game;
    expect(game.isLoading).toBe(false);
    expect(game.storyLog.filter((entry: StoryEntry) => entry.kind === 'paragraph')).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
  });

  test('a double click is one turn', async () => {
    // A real store: what takeLeading is not waiting for is dropped, as in the app.
    const sagaMiddleware = createSagaMiddleware({ context: { rng: seededRng(7), storage } });
    const store = configureStore({
      reducer: gameSagaReducer,
      preloadedState: stateWith(PLAYING_GAME),
      middleware: () => new Tuple(sagaMiddleware),
    });
    const task = sagaMiddleware.run(gameSaga);
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    // The turn is over once its segment has been summarised.
    while (store.getState().game.storySummary.length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    task.cancel();
    expect(store.getState().game.turnCount).toBe(1);
    expect(model.requests).toHaveLength(2); // the segment and its summary, once
  });

  test('a free-text choice counts as medium risk, neutral, with no trait', async () => {
    const result = await run(PLAYING_GAME)
      .dispatch(gameActions.choiceMade({ text: '  Sing to the gate  ' }))
      .silentRun(1500);
    expect(result.storeState.game.lastChoice?.option).toEqual({
      text: 'Sing to the gate',
      risk: 'medium',
      alignment: 'neutral',
      traitAlignment: '',
    });
    expect(result.storeState.game.storyLog[1]).toEqual(
      expect.objectContaining({ kind: 'choice', freeText: true, text: 'Sing to the gate' }),
    );
  });
});

/**
 * A fetch that holds back the summary requests (the prompt asks for storySummary) until the
 * test releases them, so a test can look at the game while a summary is being written. A held
 * request aborted by the game never reaches the server.
 */
function heldSummaries() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetchWithHeldSummaries: typeof fetch = async (input, init) => {
    if (String(init?.body ?? '').includes('storySummary')) {
      await Promise.race([
        released,
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('The summary was aborted.', 'AbortError')),
          );
        }),
      ]);
    }
    return fetch(input, init);
  };
  return { fetch: fetchWithHeldSummaries, release };
}

/** A real store running the game's saga (what takeLeading is not waiting for is dropped). */
function storeRunning(game: Partial<GameState>, fetchImpl: typeof fetch) {
  const sagaMiddleware = createSagaMiddleware({
    context: { rng: seededRng(7), storage, fetch: fetchImpl },
  });
  const store = configureStore({
    reducer: gameSagaReducer,
    preloadedState: stateWith(game),
    middleware: () => new Tuple(sagaMiddleware),
  });
  const task = sagaMiddleware.run(gameSaga);
  return { store, stop: () => task.cancel() };
}

async function until(check: () => boolean, what: string) {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 3000) throw new Error(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const paragraphs = (game: GameState) =>
  game.storyLog.filter((entry: StoryEntry) => entry.kind === 'paragraph');
const NEW_SUMMARY = 'Aria knocked, and a sleepy porter let her into the courtyard.';

describe("a segment's summary, written behind the options", () => {
  test('the options show as soon as the segment is in, while its summary is written', async () => {
    const held = heldSummaries();
    const { store, stop } = storeRunning(PLAYING_GAME, held.fetch);
    store.dispatch(gameActions.choiceMade({ index: 1 }));
    await until(() => paragraphs(store.getState().game).length === 2, 'the segment');
    expect(store.getState().game).toEqual(
      expect.objectContaining({ isLoading: false, summaryPending: true }),
    );
    expect(canChoose(store.getState().game)).toBe(true);
    expect(store.getState().game.options.length).toBeGreaterThan(0);
    expect(store.getState().game.storySummary).toEqual(['Aria reached the gate.']);

    held.release();
    await until(() => !store.getState().game.summaryPending, 'the summary');
    stop();
    expect(store.getState().game.storySummary).toHaveLength(2);
    expect(store.getState().game.isLoading).toBe(false);
  });

  test('a choice made while the summary is written waits for it; the next prompt has it', async () => {
    model.enqueue(
      {
        json: {
          storySegment: 'A sleepy porter opens the gate and waves Aria into the courtyard.',
          options: [{ text: 'Thank the porter', risk: 'low', alignment: 'moral' }],
        },
      },
      { json: { storySummary: NEW_SUMMARY } },
    );
    const held = heldSummaries();
    const { store, stop } = storeRunning(PLAYING_GAME, held.fetch);
    store.dispatch(gameActions.choiceMade({ index: 1 }));
    await until(() => canChoose(store.getState().game), 'the options');
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The second turn is loading, and has asked for nothing before the summary is in.
    expect(store.getState().game).toEqual(
      expect.objectContaining({ turnCount: 2, isLoading: true, summaryPending: true }),
    );
    expect(model.requests).toHaveLength(1);

    held.release();
    await until(() => paragraphs(store.getState().game).length === 3, 'the second segment');
    stop();
    const prompts = model.requests.map((request) => userPrompt(request.body));
    expect(prompts[1]).toContain('storySummary');
    expect(prompts[2]).toContain(NEW_SUMMARY);
    expect(store.getState().game.storySummary.slice(0, 2)).toEqual([
      'Aria reached the gate.',
      NEW_SUMMARY,
    ]);
  });

  test("Cancel stops the next turn's wait for the summary, not the summary", async () => {
    const held = heldSummaries();
    const { store, stop } = storeRunning(PLAYING_GAME, held.fetch);
    store.dispatch(gameActions.choiceMade({ index: 1 }));
    await until(() => canChoose(store.getState().game), 'the options');
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    store.dispatch(gameActions.waitCancelled());
    expect(store.getState().game.error).toBe('turnFailed');

    held.release();
    await until(() => store.getState().game.storySummary.length === 2, 'the summary');
    store.dispatch(gameActions.turnRetryRequested());
    await until(() => paragraphs(store.getState().game).length === 3, 'the second segment');
    stop();
    expect(store.getState().game.turnCount).toBe(2);
  });

  test('Return to Home while the summary is written stops it', async () => {
    const held = heldSummaries();
    const { store, stop } = storeRunning(PLAYING_GAME, held.fetch);
    store.dispatch(gameActions.choiceMade({ index: 1 }));
    await until(() => canChoose(store.getState().game), 'the options');
    store.dispatch(gameActions.returnedHome());
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop();
    expect(store.getState().game).toEqual(
      expect.objectContaining({ stage: 'loadOrCreate', summaryPending: false }),
    );
    expect(store.getState().game.storySummary).toEqual(['Aria reached the gate.']);
    // The held summary request was aborted before it went out.
    expect(model.requests).toHaveLength(1);
  });
});

describe('the ending', () => {
  test('from turn 7 the conclusion check may end the story; the recap and the score follow', async () => {
    const result = await run({ ...PLAYING_GAME, turnCount: 6, outcomes: Array(6).fill('partial') })
      .dispatch(gameActions.choiceMade({ index: 1 }))
      .put.like({
        action: { type: gameActions.segmentReceived.type, payload: { isFinal: true } },
      })
      .put.like({ action: { type: gameActions.segmentSummarized.type } })
      .put.like({ action: { type: scoreComputed.type } })
      .put.like({ action: { type: gameActions.recapReceived.type } })
      .silentRun(2500);
    const { game, playerStats } = result.storeState;
    expect(game.stage).toBe('endingScreen');
    expect(userPrompt(model.requests[0]!.body)).toContain('isFinal');
    // The final segment's summary first, then the recap, which reads it.
    expect(userPrompt(model.requests[1]!.body)).toContain('storySummary');
    expect(userPrompt(model.requests[2]!.body)).toContain('wrapUpParagraph');
    expect(game.storySummary).toHaveLength(2);
    expect(playerStats.finalScore).toBe(
      endingScore({
        scoreBreakdown: playerStats.scoreBreakdown,
        turnCount: 7,
        successRate: playerStats.playerStats.successRate,
        endingType: game.recap!.endingType,
      }).score,
    );
  });

  test('before turn 7 a turn never asks whether to conclude', async () => {
    await run({ ...PLAYING_GAME, turnCount: 5 })
      .dispatch(gameActions.choiceMade({ index: 0 }))
      .silentRun(1500);
    expect(userPrompt(model.requests[0]!.body)).not.toContain('isFinal');
  });
});

test('in Korean the prompts are Korean', async () => {
  await run(PLAYING_GAME, 'kr')
    .dispatch(gameActions.choiceMade({ index: 0 }))
    .silentRun(1500);
  expect(userPrompt(model.requests[0]!.body)).toMatch(/[가-힣]/);
});

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
import { initialProviderSessionState, httpModelClient } from '../../../src/features/llm';
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
  gameReply,
  startFakeModelServer,
  userPrompt,
  type ChatRequestBody,
  type CompletionReply,
  type FakeModelServer,
} from '../../fixtures/fakeModelServer';

// A server per test: a request still on its way when a test ends (a run cut at its time
// limit) reaches the old server, never the next test's log.
let model: FakeModelServer;
beforeEach(async () => {
  model = await startFakeModelServer();
});
afterEach(() => model.close());

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
    if (name === 'random') return seededRng(7);
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
    expect(result.storeState.game.keyError).toBe('invalidApiKey');
  });

  test('an empty key is refused without asking the provider', async () => {
    const result = await expectSaga(gameSaga)
      .withReducer(gameSagaReducer, {
        ...stateWith({ stage: 'apiKeyInput', apiKey: '' }),
        settings: { ...initialSettingsState, provider: 'groq' },
      })
      .dispatch(gameActions.apiKeySubmitted('   '))
      .silentRun(300);
    expect(result.storeState.game.keyError).toBe('emptyApiKey');
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
    // The profile (its gender read from the name) and the opening scene with its summary.
    expect(model.requests).toHaveLength(2);
    expect(game.storySummary[0]).toBe(
      'A stranger handed the hero a sealed letter as alarm bells rang over the harbour.',
    );
  });

  test("the spec's gender and summary requests are the fallbacks for replies without them", async () => {
    model.replyWith((body) => {
      const reply = withoutSummaries(body);
      if (typeof reply.json !== 'object' || !('characterGender' in reply.json)) return reply;
      return { ...reply, json: { ...reply.json, characterGender: 'unknown' } };
    });
    const result = await run({ stage: 'characterSelection' })
      .dispatch(gameActions.characterNamed('Aria Vale'))
      .put.like({ action: { type: gameActions.openingSummaryReceived.type } })
      .silentRun(2000);
    const prompts = model.requests.map((request) => userPrompt(request.body));
    expect(prompts).toHaveLength(4);
    expect(prompts[0]).toContain('characterBio');
    expect(prompts[1]).toContain('{"gender"');
    expect(prompts[3]).toContain('{"newStorySummary"');
    expect(result.storeState.game.characterGender).toBe('female');
    expect(result.storeState.game.stage).toBe('playing');
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
      .put.like({ action: { type: gameActions.scenarioPicked.type } })
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
      .put.like({ action: { type: gameActions.summaryStored.type } })
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
        gameActions.summaryStored('The gate creaks open onto a moonlit courtyard full of statues.'),
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
    const sagaMiddleware = createSagaMiddleware({ context: { random: seededRng(7), storage } });
    const store = configureStore({
      reducer: gameSagaReducer,
      preloadedState: stateWith(PLAYING_GAME),
      middleware: () => new Tuple(sagaMiddleware),
    });
    const task = sagaMiddleware.run(gameSaga);
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    store.dispatch(gameActions.choiceMade({ index: 0 }));
    // The turn is over once its segment and the summary it carries are in.
    while (store.getState().game.storySummary.length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    task.cancel();
    expect(store.getState().game.turnCount).toBe(1);
    expect(model.requests).toHaveLength(1); // one request for the turn, once
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
    // The summary request's own prompt (a story prompt names the field after its options).
    if (String(init?.body ?? '').includes('{\\"storySummary\\"')) {
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
    context: { random: seededRng(7), storage, model: httpModelClient(fetchImpl) },
  });
  const store = configureStore({
    reducer: gameSagaReducer,
    preloadedState: stateWith(game),
    middleware: () => new Tuple(sagaMiddleware),
  });
  const task = sagaMiddleware.run(gameSaga);
  /** Ends the run once no summary is being written, so no request outlives the test. */
  const stop = async () => {
    await until(() => !store.getState().game.summaryPending, 'the last summary');
    task.cancel();
  };
  return { store, stop };
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

/** The game's replies from a model that leaves the summary out of its story replies. */
const withoutSummaries = (body: ChatRequestBody): CompletionReply => {
  const reply = gameReply(body);
  if (typeof reply.json !== 'object') return reply;
  const { storySummary: _s, newStorySummary: _n, ...story } = reply.json as Record<string, unknown>;
  // The spec's own summary requests are still answered.
  const isStory = 'storySegment' in story || 'storyStart' in story;
  return isStory ? { ...reply, json: story } : reply;
};

describe('one request per turn (DESIGN.md)', () => {
  test("the turn's summary rides in its reply: stored at once, nothing more asked", async () => {
    const result = await run(PLAYING_GAME)
      .dispatch(gameActions.choiceMade({ index: 1 }))
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .put.like({ action: { type: gameActions.summaryStored.type } })
      .silentRun(1500);
    const { game } = result.storeState;
    expect(model.requests).toHaveLength(1);
    expect(game.storySummary).toEqual([
      'Aria reached the gate.',
      'A stranger handed the hero a sealed letter as alarm bells rang over the harbour.',
    ]);
    expect(game.summaryPending).toBe(false);
    expect(canChoose(game)).toBe(true);
  });

  test('the choice, its roll, the conclusion check and the prompt count the same turn', async () => {
    // Six choices made: the seventh is turn 7 for every rule (SPEC.md section 4).
    const result = await run({ ...PLAYING_GAME, turnCount: 6, outcomes: Array(6).fill('partial') })
      .dispatch(gameActions.choiceMade({ index: 1 }))
      .put.like({ action: { type: gameActions.scenarioPicked.type, payload: { turn: 7 } } })
      .silentRun(2500);
    const prompt = userPrompt(model.requests[0]!.body);
    expect(prompt).toContain('Turn 7.');
    expect(prompt).toContain('isFinal');
    expect(result.storeState.game.turnCount).toBe(7);

    model.requests.length = 0;
    await run({ ...PLAYING_GAME, turnCount: 5 })
      .dispatch(gameActions.choiceMade({ index: 1 }))
      .put.like({ action: { type: gameActions.scenarioPicked.type, payload: { turn: 6 } } })
      .silentRun(1500);
    expect(userPrompt(model.requests[0]!.body)).toContain('Turn 6.');
    expect(userPrompt(model.requests[0]!.body)).not.toContain('isFinal');
  });
});

describe("a segment's summary, written behind the options (a reply without one)", () => {
  beforeEach(() => model.replyWith(withoutSummaries));

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
    await stop();
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
    await stop();
    const prompts = model.requests.map((request) => userPrompt(request.body));
    expect(prompts[1]).toMatch(/^Summarise this segment/);
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
    await stop();
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
    await stop();
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
      .put.like({ action: { type: gameActions.summaryStored.type } })
      .put.like({ action: { type: scoreComputed.type } })
      .put.like({ action: { type: gameActions.recapReceived.type } })
      .silentRun(2500);
    const { game, playerStats } = result.storeState;
    expect(game.stage).toBe('endingScreen');
    expect(userPrompt(model.requests[0]!.body)).toContain('isFinal');
    // The final segment carries its summary; the recap, which reads it, is the one request more.
    expect(model.requests).toHaveLength(2);
    expect(userPrompt(model.requests[1]!.body)).toContain('wrapUpParagraph');
    expect(userPrompt(model.requests[1]!.body)).toContain(game.storySummary[1]);
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

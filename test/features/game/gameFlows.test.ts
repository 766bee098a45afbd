/**
 * The game's flows, each run as the worker it is: expectSaga(worker, action) over the real root
 * reducer, the model a scripted client in the saga context (test/support/scriptedModel.ts), a
 * seeded random source and a virtual clock (test/support/virtualClock.ts). A run ends when its
 * flow does: no server, no timeout, no wall clock. What the client does on the wire is tested against the strict fake
 * providers (test/features/llm/client.test.ts, modelSession and providerLimits tests).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer, type RootState } from '../../../src/app/store';
import { endingScore } from '../../../src/engine/score';
import {
  canChoose,
  checkKey,
  gameActions,
  openingGeneration,
  playTurn,
  retryTurn,
  scoreComputed,
  summaryFallback,
  type StoryEntry,
  stageOf,
} from '../../../src/features/game';
import {
  ProviderError,
  ReplyCutOffError,
  limitError,
  selectListedModels,
} from '../../../src/features/llm';
import { gameReply, userPrompt, type CompletionReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith, playingWith, type GameAt } from '../../fixtures/games';
import { MemoryStorage } from '../../fixtures/testWallet';
import {
  answering,
  SETTINGS,
  paragraphs,
  play,
  prompts,
  putTypes,
  withoutSummaries,
} from '../../support/gameWorkers';
import { contextProviders } from '../../support/sagaReplay';
import { scriptedModel } from '../../support/scriptedModel';
import { virtualClock } from '../../support/virtualClock';

const perMinuteLimit = (waitMs: number | null) =>
  limitError(429, { kind: 'perMinute', metric: 'tokens', waitMs }, 'Rate limit reached');

describe('the key check', () => {
  const submitted = gameActions.apiKeySubmitted;
  const keyScreen: GameAt = { turn: { phase: 'keyNeeded' }, apiKey: '' };

  test('an OK answer accepts the key and keeps it under the spec key', async () => {
    const model = scriptedModel([], { listed: ['fake-model'] });
    const storage = new MemoryStorage();
    const result = await play(checkKey, submitted(' sk-live '), {
      game: keyScreen,
      model,
      storage,
    }).run(false);
    // The provider's model list first (issue 11), then the spec's key check, with the key.
    expect(putTypes(result)).toEqual(['providerSession/modelListRead', 'game/apiKeyAccepted']);
    expect(model.keysListedWith).toEqual(['sk-live']);
    expect(model.keysChecked).toEqual(['sk-live']);
    expect(storage.getItem('apiKey')).toBe('sk-live');
    expect(stageOf(result.storeState.game.turn)).toBe('loadOrCreate');
    expect(
      selectListedModels(result.storeState)?.models.map((m: { id: string }) => m.id),
    ).toContain('fake-model');
  });

  test('a refused key says it is invalid', async () => {
    const model = scriptedModel([], { keyCheck: new ProviderError(401, 'Invalid API key') });
    const result = await play(checkKey, submitted('sk-wrong'), { game: keyScreen, model })
      .put.like({ action: { type: gameActions.apiKeyRejected.type } })
      .run(false);
    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'invalidApiKey',
    });
  });

  test('an empty key is refused without asking the provider', async () => {
    const model = scriptedModel([]);
    const result = await play(checkKey, submitted('   '), {
      game: keyScreen,
      model,
      settings: { provider: 'groq' },
    })
      .put(gameActions.apiKeyRejected({ error: 'emptyApiKey' }))
      .run(false);
    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'emptyApiKey',
    });
    expect(model.keysListedWith).toEqual([]);
    expect(model.keysChecked).toEqual([]);
  });
});

describe('the opening', () => {
  const named = gameActions.characterNamed('Aria Vale');
  const setUp: GameAt = { turn: { phase: 'naming' }, story: { chosenGenre: 'High Fantasy' } };

  test('profile, opening scene and summary, with progress, then playing', async () => {
    const model = scriptedModel(gameReply);
    const result = await play(openingGeneration, named, { game: setUp, model })
      .put.like({ action: { type: gameActions.characterProfileReceived.type } })
      .put(gameActions.openingProgressed(75))
      .put.like({ action: { type: gameActions.openingReceived.type } })
      .put.like({ action: { type: gameActions.openingSummaryReceived.type } })
      .run(false);
    const game = result.storeState.game;
    expect(stageOf(game.turn)).toBe('playing');
    expect(game.turn).toEqual({ phase: 'choosing' });
    expect(game.story.characterTraits).toHaveLength(5);
    expect(game.story.options.length).toBeGreaterThanOrEqual(2);
    expect(game.story.storySummary).toHaveLength(1);
    expect(game.story.characterGender).toBe('female');
    // The profile (its gender read from the name) and the opening scene with its summary.
    expect(model.requests).toHaveLength(2);
    expect(game.story.storySummary[0]).toBe(
      'A stranger handed the hero a sealed letter as alarm bells rang over the harbour.',
    );
  });

  /**
   * What the player sees after each action the opening put, from the name on: the loading
   * screen with its progress, then the story.
   */
  function screensSeen(result: { effects: { put?: unknown[] } }) {
    let state = rootReducer(appStateWith(setUp, SETTINGS), named);
    const seen = (result.effects.put ?? []).map((effect) => {
      state = rootReducer(state, (effect as { payload: { action: UnknownAction } }).payload.action);
      const { turn } = state.game;
      return turn.phase === 'opening' ? `loading ${turn.progress}%` : stageOf(turn);
    });
    return seen.filter((screen, at) => screen !== seen[at - 1]);
  }

  test('the progress reaches 100 before the story shows (SPEC.md section 4)', async () => {
    const model = scriptedModel(gameReply);
    const result = await play(openingGeneration, named, { game: setUp, model }).run(false);
    // 25 for each of traits, bio and portrait, then 100 when the opening is ready.
    expect(screensSeen(result)).toEqual(['loading 0%', 'loading 75%', 'loading 100%', 'playing']);

    // The same when the opening's summary is asked for on its own: the bar stays full meanwhile.
    const fallback = await play(openingGeneration, named, {
      game: setUp,
      model: scriptedModel(withoutSummaries),
    }).run(false);
    expect(screensSeen(fallback)).toEqual(['loading 0%', 'loading 75%', 'loading 100%', 'playing']);
  });

  test("the spec's gender and summary requests are the fallbacks for replies without them", async () => {
    const model = scriptedModel((body) => {
      const reply = (withoutSummaries as (b: typeof body) => CompletionReply)(body);
      if (typeof reply.json !== 'object' || !('characterGender' in reply.json)) return reply;
      return { ...reply, json: { ...reply.json, characterGender: 'unknown' } };
    });
    const result = await play(openingGeneration, named, { game: setUp, model })
      .put.like({ action: { type: gameActions.openingSummaryReceived.type } })
      .run(false);
    const asked = prompts(model);
    expect(asked).toHaveLength(4);
    expect(asked[0]).toContain('characterBio');
    expect(asked[1]).toContain('{"gender"');
    expect(asked[3]).toContain('{"newStorySummary"');
    expect(result.storeState.game.story.characterGender).toBe('female');
    expect(stageOf(result.storeState.game.turn)).toBe('playing');
  });

  const PROFILE = {
    json: {
      characterQuirks: ['a', 'b', 'c', 'd', 'e'],
      characterGender: 'female',
      characterBio: 'Bio.',
      characterFacialFeatures: [],
    },
  };

  test('an unreadable opening scene is asked again 5 times, then the spec error', async () => {
    const model = scriptedModel([
      PROFILE,
      ...Array.from({ length: 6 }, () => ({ json: 'not json at all' })),
    ]);
    const result = await play(openingGeneration, named, { game: setUp, model })
      // Three at once, then pauses the player sees: 2 s, then 4 s from the end of the first.
      .put(gameActions.turnRetryScheduled({ reason: 'unreadableReply', attempt: 3, retryAt: null }))
      .put(gameActions.turnRetryScheduled({ reason: 'unreadableReply', attempt: 4, retryAt: 2000 }))
      .put(gameActions.turnRetryScheduled({ reason: 'unreadableReply', attempt: 5, retryAt: 6000 }))
      .put.like({
        action: { type: gameActions.turnFailed.type, payload: { reason: 'retriesExhausted' } },
      })
      .run(false);
    expect(result.storeState.game.turn.phase).toBe('openingFailed');
    expect(model.requests).toHaveLength(1 + 6);
  });

  test('the opening summary is asked for up to 10 more times', async () => {
    const model = scriptedModel([
      PROFILE,
      {
        json: {
          storyStart: 'A door.',
          options: [{ text: 'Open it', risk: 'low', alignment: 'neutral' }],
        },
      },
      ...Array.from({ length: 11 }, () => ({ json: { newStorySummary: '' } })),
    ]);
    // Asked again at once three times, then after 2, 4, 8, 16 s and at most 30 s.
    const pausedBefore = 2000 + 4000 + 8000 + 16_000 + 30_000 + 30_000;
    const result = await play(openingGeneration, named, { game: setUp, model })
      .put(
        gameActions.turnRetryScheduled({
          reason: 'unreadableReply',
          attempt: 10,
          retryAt: pausedBefore + 30_000,
        }),
      )
      .put.like({
        action: { type: gameActions.turnFailed.type, payload: { reason: 'retriesExhausted' } },
      })
      .run(false);
    expect(result.storeState.game.turn.phase).toBe('openingFailed');
    expect(model.requests).toHaveLength(2 + 11);
  });
});

describe('a turn', () => {
  test('a choice made, its outcome rolled, its scenario picked, the segment received with its summary', async () => {
    const model = scriptedModel(gameReply);
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: PLAYING_GAME,
      model,
    }).run(false);
    // The summary rides in the reply (DESIGN.md: one request per turn): nothing more is asked.
    expect(putTypes(result)).toEqual([
      gameActions.outcomeRolled.type,
      gameActions.scenarioPicked.type,
      gameActions.segmentStreamed.type,
      gameActions.tokensCounted.type,
      gameActions.segmentReceived.type,
      gameActions.optionsOffered.type,
      gameActions.summaryStored.type,
    ]);
    expect(model.requests).toHaveLength(1);
    const game = result.storeState.game;
    expect(game.story.storySummary).toEqual([
      'Aria reached the gate.',
      'A stranger handed the hero a sealed letter as alarm bells rang over the harbour.',
    ]);
    expect(game.summary).toBe('written');
    expect(canChoose(game)).toBe(true);
    expect(game.story.storyLog.map((entry: StoryEntry) => entry.kind)).toEqual([
      'paragraph',
      'choice',
      'paragraph',
    ]);
    // The stats follow the game's own roll for the low-risk, moral, in-character choice.
    expect(result.storeState.game.story.playerStats).toEqual(
      expect.objectContaining({ moralScore: 10, traitConsistency: 5 }),
    );
  });

  test('a reply cut off by its output limit is asked again once with more room, never stored', async () => {
    const model = scriptedModel(answering(new ReplyCutOffError('{"storySegment": "The ga')));
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: PLAYING_GAME,
      model,
    })
      .put(gameActions.turnRetryScheduled({ reason: 'cutOff', attempt: 1, retryAt: null }))
      .run(false);
    expect(model.requests).toHaveLength(2);
    expect(model.moreRoom).toEqual([false, true]);
    const game = result.storeState.game;
    expect(game).toMatchObject({ story: { turnCount: 1 }, turn: { phase: 'choosing' } });
    expect(paragraphs(game).join(' ')).not.toContain('The ga"');
  });

  test('a reply cut off twice is told to the player, and nothing of it is in the story', async () => {
    const cutOff = () => new ReplyCutOffError('{"storySegment": "Half a');
    const model = scriptedModel([cutOff(), cutOff()]);
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: PLAYING_GAME,
      model,
    })
      .put.like({
        action: { type: gameActions.turnFailed.type, payload: { reason: 'replyCutOff' } },
      })
      .run(false);
    expect(model.requests).toHaveLength(2);
    expect(result.storeState.game.turn.phase).toBe('failed');
    // The story's paragraphs are those it had: nothing of the half reply.
    const before = PLAYING_GAME.story?.storyLog?.filter((entry) => entry.kind === 'paragraph');
    expect(paragraphs(result.storeState.game)).toEqual(before);
  });

  test('two per-minute limits are waited out visibly, as long as each answer says, then the segment', async () => {
    const model = scriptedModel(answering(perMinuteLimit(2000), perMinuteLimit(null)));
    const clock = virtualClock();
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: PLAYING_GAME,
      model,
      clock,
    }).run(false);
    const waits = result.effects.put
      .map((effect) => effect.payload.action as UnknownAction)
      .filter(gameActions.turnRetryScheduled.match)
      .map((action) => action.payload);
    // Each wait says what the request asked again reserves of the minute: the same request.
    const reserved = waits[0]?.reserves;
    expect(reserved).toBeGreaterThan(1000);
    // The named wait plus its jitter (100-500 ms), then the spec's 5 s for an answer naming none.
    expect(waits).toEqual([
      { reason: 'rateLimited', attempt: 1, retryAt: expect.any(Number), reserves: reserved },
      { reason: 'rateLimited', attempt: 2, retryAt: expect.any(Number), reserves: reserved },
    ]);
    const [first, second] = waits.map((wait) => wait.retryAt!);
    expect(first).toBeGreaterThanOrEqual(2100);
    expect(first).toBeLessThanOrEqual(2500);
    // The second wait starts when the first ends, and the third request goes out when it ends.
    expect(second! - first!).toBe(5000);
    expect(clock.slept).toEqual([first, 5000]);
    expect(model.requests).toHaveLength(3);
    const game = result.storeState.game;
    expect(game).toMatchObject({ story: { turnCount: 1 }, turn: { phase: 'choosing' } });
    expect(paragraphs(game)).toHaveLength(2);
  });

  test('a provider error stops loading with the spec message; Try again plays the same turn', async () => {
    const failing = scriptedModel([new ProviderError(500, 'upstream exploded')]);
    const failed = await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: PLAYING_GAME,
      model: failing,
    })
      .put.like({ action: { type: gameActions.turnFailed.type } })
      .run(false);
    expect(failed.storeState.game).toMatchObject({ turn: { phase: 'failed' } });

    const retried = gameActions.turnRetryRequested();
    const model = scriptedModel(gameReply);
    const result = await expectSaga(retryTurn, retried)
      .withReducer(rootReducer, rootReducer(failed.storeState, retried))
      .provide(contextProviders({ model }))
      .put.like({ action: { type: gameActions.segmentReceived.type } })
      .run(false);
    const game = result.storeState.game;
    expect(game.turn).toEqual({ phase: 'choosing' });
    expect(game.story.turnCount).toBe(1);
    expect(game.story.storyLog.filter((entry: StoryEntry) => entry.kind === 'choice')).toHaveLength(
      1,
    );
    // The same choice, asked again.
    expect(userPrompt(model.requests[0]!)).toContain('Climb the gate');
  });

  test('Cancel during a slow reply stops the turn and aborts the request', async () => {
    const model = scriptedModel([new Promise<never>(() => {})]);
    const result = await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: PLAYING_GAME,
      model,
    })
      .dispatch(gameActions.waitCancelled())
      .run(false);
    const game = result.storeState.game;
    expect(game.turn.phase).toBe('failed');
    expect(paragraphs(game)).toHaveLength(1);
    expect(model.aborted).toEqual(model.requests);
    expect(model.requests).toHaveLength(1);
  });

  test('a free-text choice counts as medium risk, neutral, with no trait', async () => {
    const result = await play(playTurn, gameActions.choiceMade({ text: '  Sing to the gate  ' }), {
      game: PLAYING_GAME,
      model: scriptedModel(gameReply),
    }).run(false);
    expect(result.storeState.game.story.lastChoice?.option).toEqual({
      text: 'Sing to the gate',
      risk: 'medium',
      alignment: 'neutral',
      traitAlignment: '',
    });
    expect(result.storeState.game.story.storyLog[1]).toEqual(
      expect.objectContaining({ kind: 'choice', freeText: true, text: 'Sing to the gate' }),
    );
  });

  test('the choice, its roll, the conclusion check and the prompt count the same turn', async () => {
    // Six choices made: the seventh is turn 7 for every rule (SPEC.md section 4).
    const seventh = scriptedModel(gameReply);
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: playingWith({ turnCount: 6, outcomes: Array(6).fill('partial') }),
      model: seventh,
    })
      .put.like({ action: { type: gameActions.scenarioPicked.type, payload: { turn: 7 } } })
      .run(false);
    expect(prompts(seventh)[0]).toContain('Turn 7.');
    expect(prompts(seventh)[0]).toContain('isFinal');
    expect(result.storeState.game.story.turnCount).toBe(7);

    const sixth = scriptedModel(gameReply);
    await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: playingWith({ turnCount: 5 }),
      model: sixth,
    })
      .put.like({ action: { type: gameActions.scenarioPicked.type, payload: { turn: 6 } } })
      .run(false);
    expect(prompts(sixth)[0]).toContain('Turn 6.');
    expect(prompts(sixth)[0]).not.toContain('isFinal');
  });

  test('in Korean the prompts are Korean', async () => {
    const model = scriptedModel(gameReply);
    await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: PLAYING_GAME,
      model,
      language: 'kr',
    }).run(false);
    expect(prompts(model)[0]).toMatch(/[가-힣]/);
  });
});

describe("a segment's summary, when the reply leaves it out", () => {
  test('the turn ends with the options shown and the summary missing', async () => {
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: PLAYING_GAME,
      model: scriptedModel(withoutSummaries),
    }).run(false);
    expect(putTypes(result).slice(-3)).toEqual([
      gameActions.segmentReceived.type,
      gameActions.optionsOffered.type,
      gameActions.summaryMissing.type,
    ]);
    const game = result.storeState.game;
    expect(game).toMatchObject({ turn: { phase: 'choosing' }, summary: 'pending' });
    expect(canChoose(game)).toBe(true);
    expect(game.story.storySummary).toEqual(['Aria reached the gate.']);
  });

  /** The game once its reply came without a summary: what the summary worker starts from. */
  async function missingItsSummary() {
    const { storeState } = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: PLAYING_GAME,
      model: scriptedModel(withoutSummaries),
    }).run(false);
    return storeState as RootState;
  }

  test("the summary is asked for in the spec's own request and stored", async () => {
    const state = await missingItsSummary();
    const missing = gameActions.summaryMissing();
    const model = scriptedModel([{ json: { storySummary: 'Aria knocked; the gate opened.' } }]);
    const result = await expectSaga(summaryFallback, missing)
      .withReducer(rootReducer, rootReducer(state, missing))
      .provide(contextProviders({ model }))
      .put(gameActions.summaryStored('Aria knocked; the gate opened.'))
      .run(false);
    expect(prompts(model)[0]).toMatch(/^Summarise this segment/);
    expect(prompts(model)[0]).toContain('Knock politely');
    expect(result.storeState.game.story.storySummary).toEqual([
      'Aria reached the gate.',
      'Aria knocked; the gate opened.',
    ]);
    expect(result.storeState.game.summary).toBe('written');
  });

  test('a summary the provider cannot give does not fail the turn: the first 40 words stand in', async () => {
    const state = await missingItsSummary();
    const missing = gameActions.summaryMissing();
    const segment = state.game.story.previousParagraph;
    const result = await expectSaga(summaryFallback, missing)
      .withReducer(rootReducer, rootReducer(state, missing))
      .provide(
        contextProviders({
          model: scriptedModel([new ProviderError(500, 'summary service down')]),
        }),
      )
      .put(gameActions.summaryStored(segment.split(/\s+/).slice(0, 40).join(' ')))
      .run(false);
    expect(result.storeState.game.turn).toEqual({ phase: 'choosing' });
    expect(result.storeState.game.story.options.length).toBeGreaterThan(0);
  });
});

describe('the ending', () => {
  test('from turn 7 the conclusion check may end the story; the recap and the score follow', async () => {
    const model = scriptedModel(gameReply);
    const result = await play(playTurn, gameActions.choiceMade({ index: 1 }), {
      game: playingWith({ turnCount: 6, outcomes: Array(6).fill('partial') }),
      model,
    }).run(false);
    const ending: string[] = [
      gameActions.segmentReceived.type,
      gameActions.summaryStored.type,
      scoreComputed.type,
      gameActions.recapReceived.type,
    ];
    expect(putTypes(result).filter((type) => ending.includes(type))).toEqual(ending);
    const { game } = result.storeState;
    const { story: playerStats } = game;
    expect(stageOf(game.turn)).toBe('endingScreen');
    expect(game.story.isFinal).toBe(true);
    expect(prompts(model)[0]).toContain('isFinal');
    // The final segment carries its summary; the recap, which reads it, is the one request more.
    expect(model.requests).toHaveLength(2);
    expect(prompts(model)[1]).toContain('wrapUpParagraph');
    expect(prompts(model)[1]).toContain(game.story.storySummary[1]);
    expect(game.story.storySummary).toHaveLength(2);
    expect(playerStats.finalScore).toBe(
      endingScore({
        scoreBreakdown: playerStats.scoreBreakdown,
        turnCount: 7,
        successRate: game.story.playerStats.successRate,
        endingType: game.story.recap!.endingType,
      }).score,
    );
  });

  test('before turn 7 a turn never asks whether to conclude', async () => {
    const model = scriptedModel(gameReply);
    await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: playingWith({ turnCount: 5 }),
      model,
    }).run(false);
    expect(prompts(model)[0]).not.toContain('isFinal');
  });
});

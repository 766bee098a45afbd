/**
 * Issue 40, part 3: what a turn cost. Each story request's usage, as the client reports it, is
 * counted into the story (the latest turn's and the story's total), priced by the provider's own
 * cost or its model list's price and nowhere else; a provider that reports none is counted as
 * such. A per-minute limit's wait says what the request reserves of the minute, and a limit the
 * provider stated is kept for the key screen. Each turn is the turn worker run as the game runs
 * it (expectSaga over the real root reducer, the model a scripted client, a virtual clock).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer, type RootState } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import {
  NO_COST,
  gameActions,
  parseStory,
  playTurn,
  type Story,
  type TokenTally,
} from '../../../src/features/game';
import {
  RateLimitedError,
  ReplyCutOffError,
  promptsFor,
  providerById,
  providerSessionActions,
  tokensReserved,
  type TokenUsage,
} from '../../../src/features/llm';
import { gameReply, userPrompt, type ChatRequestBody } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith, gameAt, type GameAt } from '../../fixtures/games';
import { SETTINGS, answering } from '../../support/gameWorkers';
import { contextProviders } from '../../support/sagaReplay';
import { scriptedModel, type ModelScript, type ScriptOptions } from '../../support/scriptedModel';
import { virtualClock } from '../../support/virtualClock';

/** A provider that counts 100 prompt tokens and 40 reply tokens, 10 of them thinking. */
const COUNTED: TokenUsage = {
  promptTokens: 100,
  replyTokens: 40,
  reasoningTokens: 10,
  costUsd: null,
};

/** The provider's list, as the key screen read it for the game's settings, with prices. */
const listedWithPrice = (state: RootState): RootState => ({
  ...state,
  providerSession: rootReducer(
    state,
    providerSessionActions.modelListRead({
      source: { provider: SETTINGS.provider, baseUrl: SETTINGS.baseUrl, keyFingerprint: 'k' },
      models: [
        {
          id: SETTINGS.model,
          label: SETTINGS.model,
          price: { promptUsdPerToken: 0.000001, replyUsdPerToken: 0.000004 },
        },
      ],
    }),
  ).providerSession,
});

/** One turn from `game`; the store after it and what the flow put. */
async function turn(
  game: GameAt,
  script: ModelScript,
  options: ScriptOptions = {},
  prepare: (state: RootState) => RootState = (state) => state,
  settings: Partial<RootState['settings']> = SETTINGS,
) {
  const model = scriptedModel(script, options);
  const action = gameActions.choiceMade({ index: 0 });
  const state = prepare(appStateWith(game, { ...settings, language: 'en' }));
  const result = await expectSaga(playTurn as (action: UnknownAction) => Generator, action)
    .withReducer(rootReducer, rootReducer(state, action))
    .provide(
      contextProviders({ model, random: seededRng(7), storage: null, clock: virtualClock() }),
    )
    .run(false);
  const after = result.storeState as RootState;
  const puts = (result.effects.put ?? []).map(
    (effect) => (effect as { payload: { action: UnknownAction } }).payload.action,
  );
  return { state: after, game: after.game, puts, model };
}

const tally = (changes: Partial<TokenTally>): TokenTally => ({ ...NO_COST.total, ...changes });

describe('what a turn cost', () => {
  test('each request’s usage is counted for its turn and the story, a new turn starting anew', async () => {
    const first = await turn(PLAYING_GAME, gameReply, { usage: () => COUNTED });
    const counted = first.puts.filter((action) => action.type === gameActions.tokensCounted.type);
    // One story request this turn (its reply carries the summary), counted once, as reported.
    expect(counted).toEqual([
      gameActions.tokensCounted({ turn: first.game.story.turnCount, usage: COUNTED }),
    ]);
    const turnOne = first.game.story.turnCount;
    const once = tally({
      reported: 1,
      promptTokens: 100,
      replyTokens: 40,
      reasoningTokens: 10,
      unpriced: 1,
    });
    expect(first.game.story.cost).toEqual({ turn: turnOne, lastTurn: once, total: once });

    const second = await turn(first.game, gameReply, {
      usage: () => ({ ...COUNTED, promptTokens: 300, reasoningTokens: null }),
    });
    expect(second.game.story.cost).toEqual({
      turn: turnOne + 1,
      lastTurn: tally({ reported: 1, promptTokens: 300, replyTokens: 40, unpriced: 1 }),
      total: tally({
        reported: 2,
        promptTokens: 400,
        replyTokens: 80,
        reasoningTokens: 10,
        unpriced: 2,
      }),
    });
  });

  test('a reply cut off by its output limit was paid for: counted, and so is the one asked again', async () => {
    const { game } = await turn(PLAYING_GAME, answering(new ReplyCutOffError('{"storySeg')), {
      usage: () => COUNTED,
    });
    expect(game.story.cost.lastTurn).toMatchObject({ reported: 2, promptTokens: 200 });
  });

  test('a request of an earlier turn that comes in late counts in the story’s total only', () => {
    const playing = gameAt({ turn: { phase: 'choosing' }, story: PLAYING_GAME.story });
    const state = [
      gameActions.tokensCounted({ turn: 3, usage: COUNTED }),
      gameActions.tokensCounted({ turn: 2, usage: { ...COUNTED, promptTokens: 7 } }),
    ].reduce((game, action) => rootReducer({ game } as RootState, action).game, playing);
    expect(state.story.cost.turn).toBe(3);
    expect(state.story.cost.lastTurn.promptTokens).toBe(100);
    expect(state.story.cost.total.promptTokens).toBe(107);
  });

  test('a provider that reports no usage is counted as not reported, never guessed', async () => {
    const { game } = await turn(PLAYING_GAME, gameReply);
    expect(game.story.cost.lastTurn).toEqual(tally({ notReported: 1 }));
    expect(game.story.cost.total.promptTokens).toBe(0);
  });

  test('unreadable replies asked again are each counted: the provider billed them', async () => {
    const { game } = await turn(PLAYING_GAME, answering({ json: 'not json at all' }), {
      usage: () => COUNTED,
    });
    expect(game.story.cost.lastTurn).toMatchObject({ reported: 2, promptTokens: 200 });
  });

  test('priced by the model list where it gives a price, and by the provider’s own cost first', async () => {
    const listed = await turn(PLAYING_GAME, gameReply, { usage: () => COUNTED }, listedWithPrice);
    // 100 × $0.000001 + 40 × $0.000004
    expect(listed.game.story.cost.lastTurn.costUsd).toBeCloseTo(0.00026, 10);
    expect(listed.game.story.cost.lastTurn.unpriced).toBe(0);

    const own = await turn(
      PLAYING_GAME,
      gameReply,
      { usage: () => ({ ...COUNTED, costUsd: 0.0123 }) },
      listedWithPrice,
    );
    expect(own.game.story.cost.lastTurn.costUsd).toBe(0.0123);

    // OpenRouter's preset as players leave it (its own server, its default model): the list
    // read for that server and model prices the turn.
    const openRouter = providerById('openrouter');
    const byDefault = await turn(
      PLAYING_GAME,
      gameReply,
      { usage: () => COUNTED },
      (state) => ({
        ...state,
        providerSession: rootReducer(
          state,
          providerSessionActions.modelListRead({
            source: { provider: 'openrouter', baseUrl: openRouter.baseUrl, keyFingerprint: 'k' },
            models: [
              {
                id: openRouter.defaultModel,
                label: 'GPT-OSS 120B',
                price: { promptUsdPerToken: 0.000002, replyUsdPerToken: 0.00001 },
              },
            ],
          }),
        ).providerSession,
      }),
      { provider: 'openrouter', baseUrl: '', model: '' },
    );
    // 100 × $0.000002 + 40 × $0.00001
    expect(byDefault.game.story.cost.lastTurn.costUsd).toBeCloseTo(0.0006, 10);

    // Without a list, no price: the tokens alone.
    const unlisted = await turn(PLAYING_GAME, gameReply, { usage: () => COUNTED });
    expect(unlisted.game.story.cost.lastTurn).toMatchObject({ costUsd: 0, unpriced: 1 });
  });

  test('a per-minute limit’s wait says what the request reserves; a stated limit is kept', async () => {
    const limited = new RateLimitedError(
      429,
      { kind: 'perMinute', metric: 'tokens', waitMs: 4000 },
      'Rate limit reached on tokens per minute (TPM): Limit 8000, Used 6000, Requested 3200.',
    );
    const { state, puts, model } = await turn(PLAYING_GAME, answering(limited), {
      minuteLimit: 8000,
    });
    const wait = puts.find((action) => action.type === gameActions.turnRetryScheduled.type);
    const asked = model.requests[0] as ChatRequestBody;
    const expected = tokensReserved({
      provider: providerById(SETTINGS.provider),
      model: SETTINGS.model,
      lessons: [],
      system: promptsFor('en').systemPrompt,
      prompt: userPrompt(asked),
      stream: true,
      replyTokens: asked.max_tokens as number,
    });
    expect(expected).toBeGreaterThan(1000);
    expect(wait?.payload).toMatchObject({ reason: 'rateLimited', reserves: expected });
    expect(state.providerSession.minuteLimit).toEqual({
      provider: SETTINGS.provider,
      baseUrl: SETTINGS.baseUrl,
      model: SETTINGS.model,
      tokensPerMinute: 8000,
    });
  });

  test('a wait on a limit of requests says nothing of tokens reserved', async () => {
    const requests = new RateLimitedError(
      429,
      { kind: 'perMinute', metric: 'requests', waitMs: 4000 },
      'Rate limit exceeded: free-models-per-min.',
    );
    const { puts } = await turn(PLAYING_GAME, answering(requests));
    const wait = puts.find((action) => action.type === gameActions.turnRetryScheduled.type);
    expect(wait?.payload).toMatchObject({ reason: 'rateLimited' });
    expect(wait?.payload).not.toHaveProperty('reserves');
  });

  test('a limit stated for a preset left at its defaults names its server and model', async () => {
    const groq = providerById('groq');
    const { state } = await turn(
      PLAYING_GAME,
      gameReply,
      { minuteLimit: 8000 },
      (before) => before,
      { provider: 'groq', baseUrl: '', model: '' },
    );
    expect(state.providerSession.minuteLimit).toEqual({
      provider: 'groq',
      baseUrl: groq.baseUrl,
      model: groq.defaultModel,
      tokensPerMinute: 8000,
    });
  });
});

describe('the story’s cost as it is saved', () => {
  const saved = (cost: unknown) =>
    parseStory({ ...PLAYING_GAME.story, cost } as unknown as Story) as Story;

  test('a story saved before it has none; what is kept comes back as it was', () => {
    expect(saved(undefined).cost).toEqual(NO_COST);
    const cost = {
      turn: 3,
      lastTurn: tally({ reported: 1, promptTokens: 10, replyTokens: 5, costUsd: 0.5 }),
      total: tally({
        reported: 4,
        notReported: 1,
        promptTokens: 40,
        replyTokens: 20,
        reasoningTokens: 3,
      }),
    };
    expect(saved(cost).cost).toEqual(cost);
  });

  test('a hand-edited record’s nonsense is read as nothing, never a failed load', () => {
    const cost = saved({
      turn: -2,
      lastTurn: 'x',
      total: { promptTokens: 1.5, costUsd: -1, reported: 2 },
    }).cost;
    expect(cost).toEqual({ turn: 0, lastTurn: NO_COST.total, total: tally({ reported: 2 }) });
  });
});

/**
 * @jest-environment node
 *
 * What a turn cost, through the client (issue 40, part 3): each fake provider's usage read as it
 * sends it, streamed and whole; nothing told where none is reported; a stream that stalls after
 * its reply still settles; Mistral's refusal of stream_options learnt; the per-minute budget an
 * answer states; and the prices in OpenRouter's model list.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  MODEL_FEATURES,
  RateLimitedError,
  USAGE_WAIT_MS,
  chatModelsOf,
  checkApiKey,
  fetchModelList,
  providerById,
  providerSessionActions,
  providerSessionSlice,
  refusedFeature,
  requestCompletion,
  selectMinuteLimit,
  planRequest,
  ProviderError,
  type CompletionRequest,
  type ModelLesson,
  type ProviderId,
  type TokenUsage,
} from '../../../src/features/llm';
import {
  MISTRAL_MODELS,
  promptTokensOf,
  startFakeModelServer,
  type FakeModelServerOptions,
  type RecordedRequest,
} from '../../fixtures/fakeModelServer';
import { pageFetch } from '../../fixtures/fakeProviders/pageFetch';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../support/timeouts';

jest.setTimeout(SERVER_TIMEOUT_MS);

const KEY = 'key-for-the-fake-0123456789';
const REPLY = { storyStart: 'The ferry leaves without you.', options: [] };
const REPLY_TEXT = JSON.stringify(REPLY);

type Closable = { close(): Promise<void> };
const servers: Closable[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => server.close())), STOP_TIMEOUT_MS);

/** A fake provider and the game's preset pointed at it (pages' view of its headers). */
async function providerAt(preset: ProviderId, options: FakeModelServerOptions) {
  const server = await startFakeModelServer({
    validKeys: [KEY],
    replyWith: () => ({ json: REPLY, reasoning: false }),
    ...options,
  });
  servers.push(server);
  const provider = { ...providerById(preset), baseUrl: server.url };
  return { server, provider };
}

type Told = { usage: TokenUsage[]; lessons: ModelLesson[]; minuteLimits: number[] };

function completion(
  provider: CompletionRequest['provider'],
  model: string,
  overrides: Partial<CompletionRequest> = {},
) {
  const told: Told = { usage: [], lessons: [], minuteLimits: [] };
  const reply = requestCompletion({
    provider,
    baseUrl: provider.baseUrl,
    apiKey: KEY,
    model,
    prompt: 'Write the opening scene as JSON with storyStart and options.',
    stream: true,
    signal: new AbortController().signal,
    fetch: pageFetch(),
    onUsage: (usage) => told.usage.push(usage),
    onLesson: (lesson) => told.lessons.push(lesson),
    onMinuteLimit: (tokens) => told.minuteLimits.push(tokens),
    ...overrides,
  });
  return { reply, told };
}

const promptOf = (request: RecordedRequest | undefined) => promptTokensOf(request!.body);

describe('onUsage: each provider, streamed and whole', () => {
  it.each([true, false])('OpenAI (stream %s): asks for usage, reads it once', async (stream) => {
    const { server, provider } = await providerAt('openai', { profile: 'openai' });
    const { reply, told } = completion(provider, 'gpt-4.1-mini', { stream });

    expect(await reply).toEqual([REPLY_TEXT]);
    const sent = server.requests[0];
    expect(sent?.body.stream_options).toEqual(stream ? { include_usage: true } : undefined);
    expect(told.usage).toEqual([
      {
        promptTokens: promptOf(sent),
        replyTokens: REPLY_TEXT.length,
        reasoningTokens: 0,
        costUsd: null,
      },
    ]);
  });

  it.each([true, false])(
    "Groq (stream %s): x_groq's usage, unasked; no reasoning count",
    async (stream) => {
      const { server, provider } = await providerAt('groq', { profile: 'groq' });
      const { reply, told } = completion(provider, 'meta-llama/llama-4-scout-17b-16e-instruct', {
        stream,
      });

      expect(await reply).toEqual([REPLY_TEXT]);
      expect(server.requests[0]?.body).not.toHaveProperty('stream_options');
      expect(told.usage).toEqual([
        {
          promptTokens: promptOf(server.requests[0]),
          replyTokens: REPLY_TEXT.length,
          reasoningTokens: null,
          costUsd: null,
        },
      ]);
    },
  );

  it.each([true, false])(
    'OpenRouter (stream %s): usage and cost in dollars, unasked',
    async (stream) => {
      const { server, provider } = await providerAt('openrouter', { profile: 'openrouter' });
      const { reply, told } = completion(provider, 'meta-llama/llama-3.3-70b-instruct', {
        stream,
      });

      expect(await reply).toEqual([REPLY_TEXT]);
      expect(server.requests[0]?.body).not.toHaveProperty('stream_options');
      const prompt = promptOf(server.requests[0]);
      expect(told.usage).toEqual([
        {
          promptTokens: prompt,
          replyTokens: REPLY_TEXT.length,
          reasoningTokens: 0,
          costUsd: expect.any(Number),
        },
      ]);
      // The fake charges the prices it lists: 0.0000001 and 0.0000004 a token.
      expect(told.usage[0]?.costUsd).toBeCloseTo(prompt * 1e-7 + REPLY_TEXT.length * 4e-7, 12);
    },
  );

  it('a reasoning model: its thinking counted within the reply', async () => {
    const { server, provider } = await providerAt('openai', { profile: 'openai' });
    server.enqueue({ json: REPLY, reasoning: 'Thinking it over.' });
    const { reply, told } = completion(provider, 'gpt-5-mini');

    await reply;
    expect(told.usage[0]).toMatchObject({
      replyTokens: REPLY_TEXT.length + 'Thinking it over.'.length,
      reasoningTokens: 'Thinking it over.'.length,
    });
  });

  it.each([true, false])(
    'a server that reports none (stream %s): onUsage is never called',
    async (stream) => {
      const { server, provider } = await providerAt('custom', { profile: 'lenient' });
      const { reply, told } = completion(provider, 'fake-model', { stream });

      expect(await reply).toEqual([REPLY_TEXT]);
      // Asked, as of any server the game does not know; it simply sends none.
      if (stream) expect(server.requests[0]?.body.stream_options).toEqual({ include_usage: true });
      expect(told.usage).toEqual([]);
    },
  );

  it('a reply cut off by its output limit was paid for: its usage is told, then the error', async () => {
    const { provider } = await providerAt('openai', { profile: 'openai-2026-12-12' });
    const { reply, told } = completion(provider, 'gpt-5.4-mini', {
      // Room for a few tokens of the reply: the rest is cut off.
      replyTokens: 5,
      stream: true,
    });

    await expect(reply).rejects.toMatchObject({ name: 'ReplyCutOffError' });
    expect(told.usage).toHaveLength(1);
    expect(told.usage[0]?.replyTokens).toBe(5);
  });
});

describe('a stream whose usage comes after its finishing chunk', () => {
  it('is read on past the finish_reason for the usage', async () => {
    const { server, provider } = await providerAt('openai', { profile: 'openai' });
    server.enqueue({ json: REPLY, reasoning: false, afterFinishDelayMs: 100 });
    const { reply, told } = completion(provider, 'gpt-4.1-mini');

    expect(await reply).toEqual([REPLY_TEXT]);
    expect(told.usage).toEqual([expect.objectContaining({ replyTokens: REPLY_TEXT.length })]);
  });

  it('gives up on the usage, not on the reply, when it comes too late', async () => {
    const { server, provider } = await providerAt('openai', { profile: 'openai' });
    server.enqueue({ json: REPLY, reasoning: false, afterFinishDelayMs: 1000 });
    const { reply, told } = completion(provider, 'gpt-4.1-mini', { usageWaitMs: 50 });

    expect(await reply).toEqual([REPLY_TEXT]);
    expect(told.usage).toEqual([]);
  });
});

describe('a stream that finishes its reply, then stalls', () => {
  it('settles with the text once the wait for usage is over', async () => {
    const { server, provider } = await providerAt('custom', { profile: 'lenient' });
    server.enqueue({ json: REPLY, stallAfterFinish: true });
    const started = Date.now();
    const { reply, told } = completion(provider, 'fake-model', { usageWaitMs: 50 });

    expect(await reply).toEqual([REPLY_TEXT]);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(told.usage).toEqual([]);
  });

  it('waits at most two seconds by default', () => {
    expect(USAGE_WAIT_MS).toBeLessThanOrEqual(2000);
  });
});

describe("Mistral's refusal of stream_options", () => {
  const MODEL = MISTRAL_MODELS[0]!.id;

  it('is read as the feature stream_options, by the parameter its 422 names', () => {
    const plan = planRequest(providerById('custom'), MODEL, { stream: true });
    const refusal = new ProviderError(422, 'Extra inputs are not permitted: body.stream_options', {
      param: 'stream_options',
    });
    expect(plan.streamUsage).toBe(true);
    expect(refusedFeature(refusal, plan)).toBe('stream_options');
    expect(MODEL_FEATURES).toContain('stream_options');
  });

  it('is learnt: asked again without it, the reply and its usage still read', async () => {
    const { server, provider } = await providerAt('custom', { profile: 'mistral' });
    const { reply, told } = completion(provider, MODEL);

    expect(await reply).toEqual([REPLY_TEXT]);
    expect(told.lessons).toEqual([{ feature: 'stream_options' }]);
    expect(server.requests.map((request) => request.status)).toEqual([422, 200]);
    expect(server.requests[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(server.requests[1]?.body).not.toHaveProperty('stream_options');
    expect(server.requests[1]?.body.stream).toBe(true);
    // Mistral sends a stream's usage unasked.
    expect(told.usage).toEqual([
      {
        promptTokens: promptOf(server.requests[1]),
        replyTokens: REPLY_TEXT.length,
        reasoningTokens: null,
        costUsd: null,
      },
    ]);

    // Remembered: the next request does not ask.
    const next = completion(provider, MODEL, { lessons: told.lessons });
    await next.reply;
    expect(server.requests[2]?.body).not.toHaveProperty('stream_options');
    expect(next.told.lessons).toEqual([]);
  });
});

describe('onMinuteLimit', () => {
  const GPT_OSS = 'openai/gpt-oss-120b';

  it("Groq's free tier: not from its headers, which a page cannot read; from a TPM refusal's words", async () => {
    const { provider } = await providerAt('groq', { profile: 'groq', freeTier: true });
    const first = completion(provider, GPT_OSS, { replyTokens: 3500 });
    await first.reply;
    expect(first.told.minuteLimits).toEqual([]);

    const second = completion(provider, GPT_OSS, { replyTokens: 3500 });
    await expect(second.reply).rejects.toBeInstanceOf(RateLimitedError);
    expect(second.told.minuteLimits).toEqual([8000]);
  });

  it('from x-ratelimit-limit-tokens where the provider exposes it: the key check and a turn', async () => {
    const { provider } = await providerAt('groq', {
      profile: 'groq',
      freeTier: { tokensPerMinute: 6000 },
      exposeHeaders: ['x-ratelimit-limit-tokens'],
    });
    const checked: number[] = [];
    await checkApiKey({
      provider,
      apiKey: KEY,
      model: GPT_OSS,
      signal: new AbortController().signal,
      fetch: pageFetch(),
      onMinuteLimit: (tokens) => checked.push(tokens),
    });
    expect(checked).toEqual([6000]);

    const turn = completion(provider, GPT_OSS);
    await turn.reply;
    expect(turn.told.minuteLimits).toEqual([6000]);
  });

  it('on the key check, from a refusal', async () => {
    const { server, provider } = await providerAt('groq', { profile: 'groq' });
    server.enqueue({
      status: 429,
      errorMessage:
        'Rate limit reached for model `openai/gpt-oss-120b` in organization `org_fake` service tier `on_demand` on tokens per minute (TPM): Limit 8000, Used 7990, Requested 259. Please try again in 1.86s.',
    });
    const told: number[] = [];
    const check = checkApiKey({
      provider,
      apiKey: KEY,
      model: GPT_OSS,
      signal: new AbortController().signal,
      fetch: pageFetch(),
      onMinuteLimit: (tokens) => told.push(tokens),
    });
    await expect(check).rejects.toMatchObject({ tokensPerMinute: 8000, retryAfterMs: 1860 });
    expect(told).toEqual([8000]);
  });

  it('a daily limit is no minute budget', async () => {
    const { server, provider } = await providerAt('groq', { profile: 'groq' });
    server.enqueue({
      status: 429,
      errorMessage:
        'Rate limit reached for model `openai/gpt-oss-120b` in organization `org_fake` service tier `on_demand` on tokens per day (TPD): Limit 200000, Used 199990, Requested 259. Please try again in 9m38.016s.',
    });
    const { reply, told } = completion(provider, GPT_OSS);
    await expect(reply).rejects.toMatchObject({ kind: 'daily' });
    expect(told.minuteLimits).toEqual([]);
  });

  it('is kept in the session, for this provider, server and model', () => {
    const store = configureStore({
      reducer: { [providerSessionSlice.reducerPath]: providerSessionSlice.reducer },
    });
    expect(selectMinuteLimit(store.getState())).toBeNull();
    const limit = { provider: 'groq', baseUrl: '', model: GPT_OSS, tokensPerMinute: 8000 };
    store.dispatch(providerSessionActions.minuteLimitRead(limit));
    expect(selectMinuteLimit(store.getState())).toEqual(limit);
  });
});

describe('prices from the model list', () => {
  it("OpenRouter's list: each model's price per token", async () => {
    const { provider } = await providerAt('openrouter', { profile: 'openrouter' });
    const list = await fetchModelList({
      provider,
      apiKey: KEY,
      signal: new AbortController().signal,
    });
    const models = chatModelsOf(provider, list);
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      expect(model.price).toEqual({ promptUsdPerToken: 1e-7, replyUsdPerToken: 4e-7 });
    }
  });

  it('"0" is free; "-1", missing or unreadable figures are no price', () => {
    const listed = (id: string, pricing: unknown) => ({ id, pricing });
    const models = chatModelsOf(providerById('openrouter'), {
      data: [
        listed('free/model:free', { prompt: '0', completion: '0' }),
        listed('openrouter/auto', { prompt: '-1', completion: '-1' }),
        listed('no/pricing', undefined),
        listed('half/priced', { prompt: '0.000001' }),
        listed('odd/priced', { prompt: 'cheap', completion: '0.000002' }),
        listed('numbers/priced', { prompt: 0.000001, completion: 0.000002 }),
      ],
    });
    const prices = Object.fromEntries(models.map((model) => [model.id, model.price ?? null]));
    expect(prices).toEqual({
      'free/model:free': { promptUsdPerToken: 0, replyUsdPerToken: 0 },
      'openrouter/auto': null,
      'no/pricing': null,
      'half/priced': null,
      'odd/priced': null,
      'numbers/priced': null,
    });
  });

  it('no other provider is priced, whatever its list holds', async () => {
    const { provider } = await providerAt('together', { profile: 'together' });
    const list = await fetchModelList({
      provider,
      apiKey: KEY,
      signal: new AbortController().signal,
    });
    const models = chatModelsOf(provider, list);
    expect(models.length).toBeGreaterThan(0);
    expect(models.every((model) => model.price === undefined)).toBe(true);
  });
});

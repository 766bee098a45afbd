/**
 * @jest-environment node
 *
 * Providers as they are on 2026-12-12 and 2027-01-15 (issue 30): the default chosen by family
 * from the live model list, each family's parameters, an unknown family taught by its first
 * refusals (whether the refusal names its parameter, leaves it null, masks it or leaves it out),
 * and a reply cut off by its output limit never taken for a reply.
 */
import {
  GENERATION_MAX_TOKENS,
  ProviderError,
  REASONING_ALLOWANCE_TOKENS,
  ReplyCutOffError,
  TEMPERATURE,
  chatModelsOf,
  chosenDefaultModel,
  lessonOf,
  lowestSupportedEffort,
  planRequest,
  providerById,
  refusedFeature,
  requestCompletion,
  settleModel,
  type ModelLesson,
} from '../../../src/features/llm';
import { startFakeModelServer, type FakeModelServer } from '../../fixtures/fakeModelServer';
import {
  OPENAI_DATES,
  PARAM_STYLES,
  openAiProfileId,
  openAiProfileOn,
  profileCatalogue,
} from '../../fixtures/fakeProviders';
import { routedFetch } from '../../fixtures/routedFetch';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../support/timeouts';

const openai = providerById('openai');
const groq = providerById('groq');
const KEY = 'key-for-the-fake-0123456789';

/** The chat models the game offers from the fake's listing on `date`, as read then. */
function offeredOn(date: (typeof OPENAI_DATES)[number]) {
  const profile = openAiProfileOn(date);
  const listing = profile.listing(profile.catalogue, new URLSearchParams());
  return chatModelsOf(openai, listing, Date.parse(`${date}T12:00:00Z`));
}

describe('the default, chosen from the live list by family', () => {
  test.each(OPENAI_DATES)(
    'on %s: the newest small GPT-5.x, never a retired or non-chat id',
    (date) => {
      const offered = offeredOn(date);
      expect(chosenDefaultModel(openai, offered)).toBe('gpt-5.6-terra');
      const ids = offered.map((model) => model.id);
      for (const gone of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5.5-pro', 'gpt-image-1']) {
        expect(ids).not.toContain(gone);
      }
      for (const notChat of [
        'text-embedding-3-small',
        'whisper-1',
        'davinci-002',
        'gpt-realtime',
      ]) {
        expect(ids).not.toContain(notChat);
      }
    },
  );

  test('a model past its listed shutdown date is gone', () => {
    expect(offeredOn('2026-12-12').map((model) => model.id)).toContain('gpt-4.1-mini');
    expect(offeredOn('2027-01-15').map((model) => model.id)).not.toContain('gpt-4.1-mini');
  });

  test('without the newest, the previous small one; then gpt-4.1-mini; then the built-in order', () => {
    const only = (...ids: string[]) => ids.map((id) => ({ id, label: id }));
    expect(chosenDefaultModel(openai, only('gpt-5.4-mini', 'gpt-5.1-mini', 'gpt-4.1-mini'))).toBe(
      'gpt-5.4-mini',
    );
    expect(chosenDefaultModel(openai, only('gpt-4.1-mini', 'gpt-5.4'))).toBe('gpt-4.1-mini');
    expect(chosenDefaultModel(openai, only('gpt-5.6-sol', 'gpt-5.4'))).toBe('gpt-5.6-sol');
    expect(chosenDefaultModel(openai, [])).toBe(openai.defaultModel);
  });

  test('a saved retired model is replaced by the chosen default, with both names', () => {
    expect(settleModel(openai, 'gpt-5-mini', offeredOn('2026-12-12'))).toEqual({
      model: 'gpt-5.6-terra',
      replaced: true,
    });
    expect(settleModel(openai, '', offeredOn('2027-01-15'))).toEqual({
      model: 'gpt-5.6-terra',
      replaced: false,
    });
  });
});

describe('each family’s parameters', () => {
  const plan = (model: string, provider = openai) => planRequest(provider, model);

  test('GPT-5.1 and later: effort none, a temperature with it, max_completion_tokens, no room to think', () => {
    for (const model of ['gpt-5.6-terra', 'gpt-5.5', 'gpt-5.4-mini', 'gpt-5.1']) {
      expect(plan(model)).toMatchObject({
        reasoning: { control: 'reasoning_effort', effort: 'none' },
        temperature: TEMPERATURE,
        outputLimit: { name: 'max_completion_tokens', tokens: GENERATION_MAX_TOKENS },
      });
    }
  });

  test('the first GPT-5 snapshots: minimal, the default temperature, room to think', () => {
    expect(plan('gpt-5-mini')).toMatchObject({
      reasoning: { effort: 'minimal' },
      temperature: null,
      outputLimit: {
        name: 'max_completion_tokens',
        tokens: GENERATION_MAX_TOKENS + REASONING_ALLOWANCE_TOKENS,
      },
    });
  });

  test('the o-series: low; chat snapshots and GPT-4: no effort, a temperature', () => {
    expect(plan('o4-mini')).toMatchObject({ reasoning: { effort: 'low' }, temperature: null });
    for (const model of ['gpt-5-chat-latest', 'gpt-4.1-mini']) {
      expect(plan(model)).toMatchObject({
        reasoning: null,
        temperature: TEMPERATURE,
        outputLimit: { name: 'max_completion_tokens', tokens: GENERATION_MAX_TOKENS },
      });
    }
  });

  test('Groq: max_completion_tokens for every model; gpt-oss low with room, qwen3 none', () => {
    expect(plan('openai/gpt-oss-20b', groq)).toMatchObject({
      reasoning: { effort: 'low' },
      outputLimit: {
        name: 'max_completion_tokens',
        tokens: GENERATION_MAX_TOKENS + REASONING_ALLOWANCE_TOKENS,
      },
    });
    expect(plan('qwen/qwen3.6-27b', groq)).toMatchObject({
      reasoning: { effort: 'none' },
      outputLimit: { name: 'max_completion_tokens', tokens: GENERATION_MAX_TOKENS },
    });
  });

  test('a family no rule names (GPT-6): effort low and room to think; cut off, twice the room', () => {
    expect(plan('gpt-6.1-sol')).toMatchObject({
      reasoning: { effort: 'low' },
      temperature: TEMPERATURE,
      outputLimit: { tokens: GENERATION_MAX_TOKENS + REASONING_ALLOWANCE_TOKENS },
    });
    expect(planRequest(openai, 'gpt-6.1-sol', { moreRoom: true })).toMatchObject({
      reasoning: { effort: 'low' },
      outputLimit: { tokens: GENERATION_MAX_TOKENS + 2 * REASONING_ALLOWANCE_TOKENS },
    });
    // Elsewhere such a model answers at once: no effort, no room spent of a free tier.
    expect(plan('meta-llama/llama-4-scout', groq)).toMatchObject({
      reasoning: null,
      outputLimit: { tokens: GENERATION_MAX_TOKENS },
    });
  });

  test('what a refusal taught overrides the family: another effort, no temperature', () => {
    const lessons: ModelLesson[] = [
      { feature: 'reasoning', use: 'low' },
      { feature: 'temperature' },
    ];
    expect(planRequest(openai, 'gpt-5.6-terra', { lessons })).toMatchObject({
      reasoning: { effort: 'low' },
      temperature: null,
      outputLimit: { tokens: GENERATION_MAX_TOKENS + REASONING_ALLOWANCE_TOKENS },
    });
  });
});

describe('reading a refusal', () => {
  const minimalRefused = (param: string | null) =>
    new ProviderError(
      400,
      "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.",
      { param, code: 'unsupported_value' },
    );
  const asked = planRequest(openai, 'gpt-5-mini');

  test.each([['reasoning_effort'], [null], ['***']])(
    'an effort refused with param %p teaches the lowest the model lists',
    (param) => {
      const error = minimalRefused(param);
      expect(refusedFeature(error, asked)).toBe('reasoning');
      expect(lessonOf(error, 'reasoning', asked)).toEqual({ feature: 'reasoning', use: 'none' });
    },
  );

  test('the lowest listed value, whatever the order or quotes', () => {
    expect(lowestSupportedEffort('Supported values are: "high", "low" and "medium".')).toBe('low');
    expect(lowestSupportedEffort('Something else entirely.')).toBeNull();
  });
});

describe('an unknown family against OpenAI as it answers on 2026-12-12', () => {
  let server: FakeModelServer;
  afterEach(() => server?.close(), STOP_TIMEOUT_MS);

  async function ask(profile: string, model: string, lessons: ModelLesson[], moreRoom = false) {
    const learnt: ModelLesson[] = [];
    const [reply] = await requestCompletion({
      provider: openai,
      apiKey: KEY,
      model,
      prompt: 'Write the opening scene as JSON with storyStart and options.',
      stream: true,
      moreRoom,
      lessons,
      signal: new AbortController().signal,
      fetch: routedFetch(openai.baseUrl, server),
      onLesson: (lesson) => learnt.push(lesson),
    });
    return { reply, learnt };
  }

  test.each(PARAM_STYLES)(
    'with param %s: one refused request for the temperature, then the reply, not cut off',
    async (style) => {
      const profile = openAiProfileId('2026-12-12', style);
      server = await startFakeModelServer({ profile, validKeys: [KEY] });
      const { reply, learnt } = await ask(profile, 'gpt-6.1-sol', []);
      expect(JSON.parse(reply)).toHaveProperty('storyStart');
      expect(learnt).toEqual([{ feature: 'temperature' }]);
      expect(server.requests.map((request) => request.status)).toEqual([400, 200]);
      expect(server.requests.at(-1)?.body).toMatchObject({ reasoning_effort: 'low' });
      expect(server.requests.at(-1)?.body).not.toHaveProperty('temperature');
      // Taught, the next request is refused nothing.
      await ask(profile, 'gpt-6.1-sol', learnt);
      expect(server.requests.map((request) => request.status)).toEqual([400, 200, 200]);
    },
    SERVER_TIMEOUT_MS,
  );

  test(
    'a reply still cut off is never a reply: more room is the caller’s to ask',
    async () => {
      server = await startFakeModelServer({ profile: 'openai-2026-12-12', validKeys: [KEY] });
      // At effort high the model thinks past any turn's room.
      const taught: ModelLesson[] = [
        { feature: 'reasoning', use: 'high' },
        { feature: 'temperature' },
      ];
      await expect(ask('openai-2026-12-12', 'gpt-6.1-sol', taught)).rejects.toBeInstanceOf(
        ReplyCutOffError,
      );
    },
    SERVER_TIMEOUT_MS,
  );

  test(
    'a family member that refuses none teaches its lowest effort, once',
    async () => {
      server = await startFakeModelServer({ profile: 'openai-2026-12-12', validKeys: [KEY] });
      const catalogue = profileCatalogue('openai-2026-12-12').map((model) => model.id);
      expect(catalogue).toContain('gpt-6.1-sol');
      const { learnt } = await ask('openai-2026-12-12', 'gpt-6.1-sol', [
        { feature: 'reasoning', use: 'none' },
        { feature: 'temperature' },
      ]);
      expect(learnt).toEqual([{ feature: 'reasoning', use: 'low' }]);
      expect(server.requests.filter((request) => request.status === 400)).toHaveLength(1);
    },
    SERVER_TIMEOUT_MS,
  );
});

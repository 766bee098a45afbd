/**
 * @jest-environment node
 *
 * The client against providers as strict as they document themselves (issue 11): each preset
 * through its own host, routed to the fake of that provider. What a provider refuses is given up
 * once and reported; reasoning is never story text; a missing model is not retried.
 */
import { parseModelReply } from '../../../src/engine/replyRepair';
import {
  ProviderError,
  partialField,
  providerById,
  requestCompletion,
  type CompletionRequest,
  type ModelFeature,
  type ProviderPreset,
} from '../../../src/features/llm';
import {
  REASONING_TEXT,
  startFakeModelServer,
  type FakeModelServer,
  type ProfileId,
} from '../../fixtures/fakeModelServer';
import { routedFetch } from '../../fixtures/routedFetch';
import { SERVER_TIMEOUT_MS } from '../../support/timeouts';

// Every test here starts a fake model server (the afterEach closes it): the limit of a test and of a
// hook in this file, for a loaded two-core machine (test/support/timeouts.ts).
jest.setTimeout(SERVER_TIMEOUT_MS);

const KEY = 'key-for-the-fake-0123456789';
const OPENING_PROMPT = 'Write the opening scene as JSON with storyStart and options.';
const REASONING_WORDS = REASONING_TEXT.slice(0, 30);

let server: FakeModelServer;
afterEach(() => server?.close());

interface Run {
  reply: string;
  texts: string[];
  refused: ModelFeature[];
  reasoned: boolean;
}

async function ask(
  profile: ProfileId,
  provider: ProviderPreset,
  overrides: Partial<CompletionRequest> = {},
): Promise<Run> {
  server = await startFakeModelServer({ profile, validKeys: [KEY] });
  const texts: string[] = [];
  const refused: ModelFeature[] = [];
  let reasoned = false;
  const [reply] = await requestCompletion({
    provider,
    apiKey: KEY,
    model: '',
    prompt: OPENING_PROMPT,
    stream: true,
    signal: new AbortController().signal,
    ...(provider.editableBaseUrl
      ? { baseUrl: server.url }
      : { fetch: routedFetch(provider.baseUrl, server) }),
    onText: (text) => texts.push(text),
    onLesson: (lesson) => refused.push(lesson.feature),
    onReasoning: () => {
      reasoned = true;
    },
    ...overrides,
  });
  return { reply, texts, refused, reasoned };
}

const statuses = () => server.requests.map((request) => request.body);

describe('the presets as they are', () => {
  test.each([
    ['groq', 'groq'],
    ['openai', 'openai-2026-12-12'],
    ['openrouter', 'openrouter'],
    ['together', 'together'],
    ['local', 'local'],
  ] as const)(
    '%s: the default model streams an opening with nothing refused',
    async (id, profile) => {
      const run = await ask(profile, providerById(id));

      expect(run.refused).toEqual([]);
      expect(server.requests).toHaveLength(1);
      expect(parseModelReply(run.reply).storyStart).toEqual(expect.any(String));
      expect(run.texts.length).toBeGreaterThan(0);
      for (const text of run.texts) expect(partialField(text, 'storyStart')).not.toContain('{');
    },
  );

  test('Groq: gpt-oss thinks first, at low effort; its reasoning is never story text', async () => {
    const run = await ask('groq', providerById('groq'));

    const [body] = statuses();
    expect(body).toMatchObject({
      model: 'openai/gpt-oss-120b',
      stream: true,
      reasoning_effort: 'low',
    });
    expect(body).not.toHaveProperty('response_format');
    expect(run.reasoned).toBe(true);
    expect(run.reply).not.toContain(REASONING_WORDS);
    for (const text of run.texts) expect(text).not.toContain(REASONING_WORDS);
  });

  test('a <think> block in the content (qwen3 on a local server) is thinking, not the reply', async () => {
    const run = await ask('local', providerById('local'), { model: 'qwen3:8b' });

    expect(run.reasoned).toBe(true);
    expect(run.reply).toContain('<think>');
    expect(parseModelReply(run.reply).storyStart).toEqual(expect.any(String));
    for (const text of run.texts) {
      expect(partialField(text, 'storyStart')).not.toContain(REASONING_WORDS);
    }
  });
});

describe('a refused feature is given up once, and reported', () => {
  test('Groq refuses JSON mode with streaming: the story still streams, without JSON mode', async () => {
    const assumesBoth = { ...providerById('groq'), jsonModeWhileStreaming: true };
    const run = await ask('groq', assumesBoth);

    expect(run.refused).toEqual(['response_format']);
    const [first, second] = statuses();
    expect(first).toMatchObject({ stream: true, response_format: { type: 'json_object' } });
    expect(second).toMatchObject({ stream: true });
    expect(second).not.toHaveProperty('response_format');
    expect(parseModelReply(run.reply).storyStart).toEqual(expect.any(String));
  });

  test("OpenAI's reasoning models refuse max_tokens and a temperature: both are negotiated", async () => {
    const openai = providerById('openai');
    const older: ProviderPreset = {
      ...openai,
      outputLimit: 'max_tokens',
      families: [{ match: /^gpt-5/, tokenField: 'max_tokens', efforts: ['low'] }],
    };
    const run = await ask('openai', older, { model: 'gpt-5-mini' });

    expect(run.refused.sort()).toEqual(['max_tokens', 'temperature']);
    const last = statuses().at(-1);
    expect(last).toHaveProperty('max_completion_tokens');
    expect(last).not.toHaveProperty('max_tokens');
    expect(last).not.toHaveProperty('temperature');
    expect(server.requests).toHaveLength(3);
  });

  test("OpenAI's JSON mode without the word JSON in the messages: JSON mode gives way", async () => {
    const run = await ask('openai-2026-12-12', providerById('openai'), {
      system: 'You tell stories.',
      prompt: 'Tell the opening with storyStart and options.',
    });

    expect(run.refused).toEqual(['response_format']);
    expect(statuses().at(-1)).not.toHaveProperty('response_format');
  });

  test('a local server that refuses json_object (LM Studio) is asked again without it', async () => {
    const run = await ask(
      'local',
      { ...providerById('local'), supportsJsonMode: true },
      {
        stream: false,
      },
    );

    expect(run.refused).toEqual(['response_format']);
    expect(server.requests).toHaveLength(2);
  });

  test('what was refused earlier in the session is not asked for again', async () => {
    const assumesBoth = { ...providerById('groq'), jsonModeWhileStreaming: true };
    const run = await ask('groq', assumesBoth, { lessons: [{ feature: 'response_format' }] });

    expect(run.refused).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("Groq's JSON mode check", () => {
  test('a whole reply Groq refuses as invalid JSON is still the reply: the game repairs it', async () => {
    const written = 'Sure! {storyStart: "The gate creaks open", options: [],}';
    server = await startFakeModelServer({ profile: 'groq', validKeys: [KEY] });
    server.enqueue({ json: written });
    const groq = providerById('groq');
    const [reply] = await requestCompletion({
      provider: groq,
      apiKey: KEY,
      model: '',
      prompt: OPENING_PROMPT,
      stream: false,
      signal: new AbortController().signal,
      fetch: routedFetch(groq.baseUrl, server),
    });

    expect(server.requests[0]?.body.response_format).toEqual({ type: 'json_object' });
    expect(reply).toBe(written);
    expect(parseModelReply(reply).storyStart).toBe('The gate creaks open');
  });
});

describe('a model the provider does not serve', () => {
  test.each([
    ['groq', 'groq', 'llama-3.3-70b-versatile', 404],
    ['openai', 'openai', 'gpt-3.5-turbo-instruct-gone', 404],
    ['openrouter', 'openrouter', 'meta-llama/llama-3.1-405b-instruct:gone', 400],
    ['together', 'together', 'togethercomputer/gone', 404],
    ['local', 'local', 'llama2-never-pulled', 404],
  ] as const)(
    '%s (fake %s): %s is unavailable, asked once, never taken for a refused feature',
    async (id, profile, model, status) => {
      const error = await ask(profile, providerById(id), { model }).catch(
        (caught: unknown) => caught,
      );

      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status, isModelUnavailable: true, isKeyRefused: false });
      expect(server.requests).toHaveLength(1);
    },
  );
});

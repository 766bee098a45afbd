/**
 * @jest-environment node
 */
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

import {
  DEFAULT_PROVIDER_ID,
  DEFAULT_RETRY_AFTER_MS,
  GENERATION_MAX_TOKENS,
  KEY_CHECK_MAX_TOKENS,
  PROVIDERS,
  DailyLimitError,
  NoCreditError,
  ProviderError,
  ProviderUnreachableError,
  RateLimitedError,
  RequestTooLargeError,
  StreamInterruptedError,
  TEMPERATURE,
  chatCompletionsUrl,
  checkApiKey,
  isAbortError,
  parseRetryAfter,
  partialField,
  providerById,
  requestCompletion,
  type CompletionRequest,
  type ProviderPreset,
} from '../../../src/features/llm';
import { startFakeModelServer, type FakeModelServer } from '../../fixtures/fakeModelServer';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../support/timeouts';

const KEY = 'gsk_test_key_0123456789';
const OPENING = {
  storyStart: 'The bells of the harbour ring out as a stranger hands you a sealed letter.',
  options: [{ text: 'Open it', risk: 'low', alignment: 'neutral', traitAlignment: '' }],
};

let server: FakeModelServer;
/** The default provider's settings, pointed at the fake server. */
let groq: ProviderPreset;
let local: ProviderPreset;

beforeEach(async () => {
  server = await startFakeModelServer({ validKeys: [KEY] });
  groq = { ...providerById('groq'), baseUrl: server.url };
  local = providerById('local');
}, SERVER_TIMEOUT_MS);

afterEach(() => server.close(), STOP_TIMEOUT_MS);

function completion(overrides: Partial<CompletionRequest> = {}): Promise<[string]> {
  return requestCompletion({
    provider: groq,
    apiKey: KEY,
    model: 'llama-3.3-70b-versatile',
    prompt: 'Write the opening scene as JSON with storyStart and options.',
    stream: false,
    signal: new AbortController().signal,
    ...overrides,
  });
}

/** The rejection of a promise that is expected to reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('provider presets', () => {
  it("offers the default provider's current family, its strongest general model the default", () => {
    const provider = providerById(DEFAULT_PROVIDER_ID);
    expect(provider.id).toBe('groq');
    expect(provider.baseUrl).toBe('https://api.groq.com/openai/v1');
    expect(provider.keyPortalUrl).toBe('https://console.groq.com/keys');
    expect(provider.models.map((model) => model.id)).toEqual([
      'openai/gpt-oss-120b',
      'openai/gpt-oss-20b',
      'qwen/qwen3.6-27b',
    ]);
    expect(provider.defaultModel).toBe('openai/gpt-oss-120b');
  });

  it('offers no model Groq has retired (decommissioned 2026-08-16 or never served)', () => {
    const retired = [
      'llama-3.3-70b-versatile',
      'llama-3.1-8b-instant',
      'mistral-saba-24b',
      'llama-3.1-405b-reasoning',
    ];
    for (const provider of PROVIDERS) {
      for (const model of provider.models) expect(retired).not.toContain(model.id);
      expect(retired).not.toContain(provider.defaultModel);
    }
  });

  it('has a keyless local preset and a custom one, both with an editable base URL', () => {
    expect(PROVIDERS.map((provider) => provider.id)).toEqual([
      'groq',
      'openai',
      'openrouter',
      'together',
      'local',
      'custom',
    ]);
    expect(local).toMatchObject({ requiresKey: false, editableBaseUrl: true });
    expect(local.hint?.defaultMessage).toContain('OLLAMA_ORIGINS');
    expect(providerById('custom')).toMatchObject({ requiresKey: false, editableBaseUrl: true });
    for (const provider of PROVIDERS) {
      if (provider.models.length > 0) {
        expect(provider.models.map((model) => model.id)).toContain(provider.defaultModel);
      }
    }
  });

  it('falls back to the default provider for an unknown id', () => {
    expect(providerById('gone').id).toBe('groq');
    expect(providerById(undefined).id).toBe('groq');
  });

  it('builds the chat-completions URL whatever the trailing slashes', () => {
    expect(chatCompletionsUrl('http://localhost:11434/v1')).toBe(
      'http://localhost:11434/v1/chat/completions',
    );
    expect(chatCompletionsUrl(' https://api.openai.com/v1// ')).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
    expect(chatCompletionsUrl('https://x.test/v1/chat/completions/')).toBe(
      'https://x.test/v1/chat/completions',
    );
  });
});

describe('checkApiKey', () => {
  it('sends a system message and "hi" with max_completion_tokens 256 (Groq’s current name) and accepts an OK status', async () => {
    const result = checkApiKey({
      provider: groq,
      apiKey: KEY,
      model: 'llama-3.1-8b-instant',
      signal: new AbortController().signal,
    });

    await expect(result).resolves.toBeUndefined();
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toEqual({
      model: 'llama-3.1-8b-instant',
      messages: [
        { role: 'system', content: expect.any(String) },
        { role: 'user', content: 'hi' },
      ],
      max_completion_tokens: KEY_CHECK_MAX_TOKENS,
    });
  });

  it('rejects a refused key (401) with a ProviderError that says so', async () => {
    const error = await rejectionOf(
      checkApiKey({
        provider: groq,
        apiKey: 'wrong',
        model: '',
        signal: new AbortController().signal,
      }),
    );

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).isKeyRefused).toBe(true);
    expect((error as ProviderError).isModelUnavailable).toBe(false);
    // A blank model is the preset's default.
    expect(server.requests[0]?.body.model).toBe('openai/gpt-oss-120b');
  });

  it(
    'rejects when the provider cannot be reached',
    async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));

      await expect(
        checkApiKey({
          provider: { ...groq, baseUrl: `http://127.0.0.1:${port}/v1` },
          apiKey: KEY,
          model: '',
          signal: new AbortController().signal,
        }),
      ).rejects.toThrow(ProviderUnreachableError);
    },
    SERVER_TIMEOUT_MS,
  );

  it(
    'sends no Authorization header for the local preset without a key',
    async () => {
      const keyless = await startFakeModelServer();
      try {
        await checkApiKey({
          provider: local,
          baseUrl: `${keyless.url}/`,
          apiKey: '  ',
          model: 'llama3.2',
          signal: new AbortController().signal,
        });

        expect(keyless.requests[0]?.headers.authorization).toBeUndefined();
      } finally {
        await keyless.close();
      }
    },
    SERVER_TIMEOUT_MS,
  );
});

describe('requestCompletion', () => {
  it('sends the generation settings and JSON mode, and reads a whole reply', async () => {
    server.enqueue({ json: OPENING });

    const [reply] = await completion();

    expect(JSON.parse(reply)).toEqual(OPENING);
    const body = server.requests[0]?.body;
    expect(body).toMatchObject({
      model: 'llama-3.3-70b-versatile',
      temperature: TEMPERATURE,
      max_completion_tokens: GENERATION_MAX_TOKENS,
      response_format: { type: 'json_object' },
    });
    expect(body?.stream).toBeUndefined();
    expect(body?.messages?.[0]).toEqual({ role: 'system', content: expect.stringMatching(/JSON/) });
    expect(body?.messages?.[1]).toEqual({
      role: 'user',
      content: 'Write the opening scene as JSON with storyStart and options.',
    });
  });

  it('streams, calling onText with the growing text, and resolves with the whole reply', async () => {
    server.enqueue({ json: OPENING, chunkChars: 10, chunkDelayMs: 2 });
    const seen: string[] = [];

    const [reply] = await completion({ stream: true, onText: (text) => seen.push(text) });

    expect(server.requests[0]?.body.stream).toBe(true);
    expect(reply).toBe(JSON.stringify(OPENING));
    expect(seen.length).toBeGreaterThan(3);
    seen.forEach((text, i) => {
      if (i > 0) expect(text.startsWith(seen[i - 1] ?? '')).toBe(true);
    });
    expect(seen.at(-1)).toBe(reply);
  });

  it('streams Hangul intact', async () => {
    const korean = { storyStart: '항구의 종소리가 울리고 낯선 이가 편지를 건넨다.' };
    server.enqueue({ json: korean, chunkChars: 3 });
    const seen: string[] = [];

    const [reply] = await completion({ stream: true, onText: (text) => seen.push(text) });

    expect(JSON.parse(reply)).toEqual(korean);
    expect(seen.map((text) => partialField(text, 'storyStart')).at(-1)).toBe(korean.storyStart);
  });

  it('reads a whole reply when a streaming request is not answered with an event stream', async () => {
    server.enqueue({ json: OPENING, stream: false });

    const [reply] = await completion({ stream: true });

    expect(server.requests[0]?.body.stream).toBe(true);
    expect(JSON.parse(reply)).toEqual(OPENING);
  });

  it('sends JSON mode and streaming only when the preset supports them', async () => {
    server.enqueue({ json: OPENING }, { json: OPENING });

    await completion({ provider: { ...local, baseUrl: server.url }, stream: true });
    await completion({ provider: { ...groq, supportsStreaming: false }, stream: true });

    const [localBody, noStreamBody] = server.requests.map((request) => request.body);
    expect(localBody?.response_format).toBeUndefined();
    expect(localBody?.stream).toBe(true);
    expect(noStreamBody?.response_format).toEqual({ type: 'json_object' });
    expect(noStreamBody?.stream).toBeUndefined();
  });

  it(
    'uses an edited base URL only for presets that allow it',
    async () => {
      const keyless = await startFakeModelServer();
      try {
        await completion({ provider: local, baseUrl: keyless.url, apiKey: '' });
        await completion({ baseUrl: keyless.url });

        expect(keyless.requests).toHaveLength(1);
        expect(keyless.requests[0]?.headers.authorization).toBeUndefined();
        expect(server.requests).toHaveLength(1);
      } finally {
        await keyless.close();
      }
    },
    SERVER_TIMEOUT_MS,
  );

  it('resolves with an empty text for an empty reply (the caller names it)', async () => {
    server.enqueue({ empty: true }, { empty: true });

    await expect(completion()).resolves.toEqual(['']);
    await expect(completion({ stream: true })).resolves.toEqual(['']);
  });

  it('passes a malformed reply through untouched', async () => {
    const malformed = 'Sure! {storyStart: "A dark night", options: [],} (hope this helps)';
    server.enqueue({ json: malformed }, { json: malformed });

    await expect(completion()).resolves.toEqual([malformed]);
    await expect(completion({ stream: true })).resolves.toEqual([malformed]);
  });
});

describe('requestCompletion errors', () => {
  it('turns a 429 into RateLimitedError with Retry-After in seconds', async () => {
    server.enqueue({ status: 429, retryAfter: '7' });

    const error = await rejectionOf(completion());

    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(7000);
  });

  it('reads a Retry-After HTTP date', async () => {
    server.enqueue({ status: 429, retryAfter: new Date(Date.now() + 10_000).toUTCString() });

    const error = (await rejectionOf(completion({ stream: true }))) as RateLimitedError;

    expect(error).toBeInstanceOf(RateLimitedError);
    // HTTP dates have whole seconds.
    expect(error.retryAfterMs).toBeGreaterThan(8000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(10_000);
  });

  it('waits the spec default of 5 seconds when the answer names no wait', async () => {
    server.enqueue({ status: 429 });

    const error = (await rejectionOf(completion())) as RateLimitedError;

    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(DEFAULT_RETRY_AFTER_MS);
    expect(error.waitNamed).toBe(false);
  });

  it("reads the wait from the body's words before Retry-After (Groq, OpenAI)", async () => {
    server.enqueue({
      status: 429,
      retryAfter: '8',
      errorMessage:
        'Rate limit reached for model `openai/gpt-oss-120b` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 8000, Used 6234, Requested 2500. Please try again in 7.66s. Need more tokens?',
    });

    const error = (await rejectionOf(completion())) as RateLimitedError;

    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(7660);
    expect(error.waitNamed).toBe(true);
    expect(error.metric).toBe('tokens');
  });

  it('tells a daily cap, a key without credit and a request too large apart', async () => {
    server.enqueue(
      {
        status: 429,
        errorMessage:
          'Rate limit reached for model `m` in organization `o` service tier `on_demand` on requests per day (RPD): Limit 1000, Used 1000, Requested 1. Please try again in 1m26.4s.',
      },
      {
        status: 429,
        errorMessage:
          'You exceeded your current quota, please check your plan and billing details.',
        code: 'insufficient_quota',
      },
      {
        status: 413,
        errorMessage:
          'Request too large for model `m` in organization `o` service tier `on_demand` on tokens per minute (TPM): Limit 8000, Requested 9123, please reduce your message size and try again.',
      },
    );

    const daily = (await rejectionOf(completion())) as DailyLimitError;
    expect(daily).toBeInstanceOf(DailyLimitError);
    expect(daily.resetsInMs).toBe(86_400);
    expect(daily.metric).toBe('requests');
    await expect(completion()).rejects.toBeInstanceOf(NoCreditError);
    const tooLarge = (await rejectionOf(completion())) as RequestTooLargeError;
    expect(tooLarge).toBeInstanceOf(RequestTooLargeError);
    expect(tooLarge.providerMessage).toMatch(/^Request too large/);
  });

  it("raises any other error status with the provider's own message", async () => {
    server.enqueue(
      { status: 503, errorMessage: 'The model is overloaded.' },
      { status: 502, errorMessage: 'Bad gateway from upstream', asText: true },
    );

    const json = (await rejectionOf(completion())) as ProviderError;
    const text = (await rejectionOf(completion({ stream: true }))) as ProviderError;

    expect(json).toBeInstanceOf(ProviderError);
    expect(json).toMatchObject({ status: 503, message: 'The model is overloaded.' });
    expect(text).toMatchObject({ status: 502, message: 'Bad gateway from upstream' });
  });

  it('reports a rejected key as a 401 ProviderError', async () => {
    const error = await rejectionOf(completion({ apiKey: 'wrong' }));

    expect(error).toMatchObject({ status: 401, message: 'Invalid API key' });
  });

  it('never puts the API key into an error message', async () => {
    server.enqueue({ status: 400, errorMessage: `Incorrect API key provided: ${KEY}.` });

    const error = (await rejectionOf(completion())) as ProviderError;

    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('Incorrect API key provided');
  });

  it('raises StreamInterruptedError when the connection drops mid-stream', async () => {
    server.enqueue({ json: OPENING, dropAfterChars: 40, chunkChars: 10 });

    const error = await rejectionOf(completion({ stream: true }));

    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect((error as StreamInterruptedError).partialText).toBe(
      JSON.stringify(OPENING).slice(0, 40),
    );
  });

  it('raises StreamInterruptedError when a stream ends without [DONE] or a finish_reason', async () => {
    server.enqueue({ json: OPENING, dropAfterChars: 25, endCleanly: true });

    await expect(completion({ stream: true })).rejects.toBeInstanceOf(StreamInterruptedError);
  });

  it('raises StreamInterruptedError when a whole reply is cut off', async () => {
    server.enqueue({ json: OPENING, dropAfterChars: 30 });

    await expect(completion()).rejects.toBeInstanceOf(StreamInterruptedError);
  });

  it('rejects with an abort error when the signal is aborted mid-stream', async () => {
    server.enqueue({ json: OPENING, chunkChars: 5, chunkDelayMs: 5 });
    const controller = new AbortController();
    let calls = 0;

    const error = await rejectionOf(
      completion({
        stream: true,
        signal: controller.signal,
        onText: () => {
          calls += 1;
          if (calls === 2) controller.abort();
        },
      }),
    );

    expect(isAbortError(error)).toBe(true);
    expect(calls).toBe(2);
  });

  it('rejects with an abort error when aborted before the request', async () => {
    const controller = new AbortController();
    controller.abort();

    const error = await rejectionOf(completion({ signal: controller.signal }));

    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new Error('other'))).toBe(false);
  });
});

describe('requestCompletion reading event streams', () => {
  /** A fetch answering with these raw byte chunks as an event stream. */
  function streamingFetch(chunks: (string | Uint8Array)[], status = 200): typeof fetch {
    return async () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) {
            controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
          }
          controller.close();
        },
      });
      return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
    };
  }
  const event = (content: string, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finishReason }] })}\r\n\r\n`;

  it('joins characters split across byte chunks, skips comments and ends on finish_reason', async () => {
    const bytes = new TextEncoder().encode(event('{"storyStart":"항구"}', 'stop'));
    const cut = bytes.indexOf(0xed) + 1; // inside the first Hangul syllable's three bytes

    const [reply] = await completion({
      stream: true,
      fetch: streamingFetch([': keep-alive\r\n\r\n', bytes.slice(0, cut), bytes.slice(cut)]),
    });

    expect(reply).toBe('{"storyStart":"항구"}');
  });

  it('reads data split over lines, fields it does not use, and a last event without its blank line', async () => {
    const chunk = JSON.stringify({ choices: [{ index: 0, delta: { content: '{"a":1}' } }] });
    const [half, rest] = [chunk.slice(0, 20), chunk.slice(20)];
    const [reply] = await completion({
      stream: true,
      fetch: streamingFetch([
        // One event's data on two lines is joined with a line break: still one JSON value.
        `event: message\nid: 7\nretry: 1000\ndata: ${half}\ndata: ${rest}\n\n`,
        // The body ends right after [DONE], with no blank line after it.
        'data: [DONE]',
      ]),
    });

    expect(reply).toBe('{"a":1}');
  });

  it("reads an error event sent mid-stream as a reply cut off, keeping the provider's words", async () => {
    const error = await rejectionOf(
      completion({
        stream: true,
        fetch: streamingFetch([
          event('{"story'),
          `data: ${JSON.stringify({ error: { message: 'Upstream model failed' } })}\n\n`,
        ]),
      }),
    );

    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect((error as StreamInterruptedError).partialText).toBe('{"story');
    expect((error as Error).cause).toMatchObject({
      name: 'ProviderError',
      message: 'Upstream model failed',
    });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds and HTTP dates; null when there is nothing to read', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('partialField', () => {
  const full = JSON.stringify({
    storySegment: 'You step into the crypt. Dust rises.',
    options: [{ text: 'Light a torch', risk: 'low' }],
  });

  it('reads a string field from a reply cut off at any point', () => {
    expect(partialField('', 'storySegment')).toBe('');
    expect(partialField('{"story', 'storySegment')).toBe('');
    expect(partialField('{"storySegment":', 'storySegment')).toBe('');
    expect(partialField('{"storySegment": "You st', 'storySegment')).toBe('You st');
    expect(partialField(full.slice(0, full.indexOf('options')), 'storySegment')).toBe(
      'You step into the crypt. Dust rises.',
    );
    for (let end = 0; end <= full.length; end += 1) {
      const value = partialField(full.slice(0, end), 'storySegment');
      expect('You step into the crypt. Dust rises.'.startsWith(value)).toBe(true);
    }
    expect(partialField(full, 'storySegment')).toBe('You step into the crypt. Dust rises.');
  });

  it('reads Hangul text and unquoted Hangul keys', () => {
    expect(partialField('{"storyStart": "옛날 옛적에 한 마을', 'storyStart')).toBe(
      '옛날 옛적에 한 마을',
    );
    expect(partialField('{이야기: "밤이 깊었다", storyStart: "성문이 열', 'storyStart')).toBe(
      '성문이 열',
    );
  });

  it('copes with fences, prose, escapes and line breaks', () => {
    expect(partialField('```json\n{"storyStart": "A \\"quiet\\" nig', 'storyStart')).toBe(
      'A "quiet" nig',
    );
    expect(partialField('Here it is: {"storyStart": "Night', 'storyStart')).toBe('Night');
    expect(partialField('{"storyStart": "One\nTwo"} Enjoy!', 'storyStart')).toBe('One Two');
    expect(partialField('{"storyStart": "Half an escape \\u00', 'storyStart')).toBe(
      'Half an escape',
    );
    expect(partialField('{"storyStart": "Brave" (a remark), "options": [', 'storyStart')).toBe(
      'Brave',
    );
  });

  it('is empty when the field is missing, not text, or nothing can be read', () => {
    expect(partialField('no JSON yet', 'storyStart')).toBe('');
    expect(partialField('{"isFinal": true', 'storyStart')).toBe('');
    expect(partialField('{"storyStart": 42}', 'storyStart')).toBe('');
  });
});

import { limitOf, parseDuration, type HeaderReader } from '../../../src/features/llm/limits';

const NOW = Date.parse('2026-11-25T12:00:00Z');

/** Headers as a browser shows them: only the ones the provider exposed are there. */
const headers = (exposed: Record<string, string> = {}): HeaderReader => ({
  get: (name) => exposed[name.toLowerCase()] ?? null,
});

const groq = (limitWords: string, type: string, wait: string) => ({
  error: {
    message: `Rate limit reached for model \`openai/gpt-oss-120b\` in organization \`org_01abc\` service tier \`on_demand\` on ${limitWords}: Limit 8000, Used 6234, Requested 2500. Please try again in ${wait}. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`,
    type,
    code: 'rate_limit_exceeded',
  },
});

describe('parseDuration: the waits providers write', () => {
  it.each([
    ['7.66s', 7660],
    ['1m26.4s', 86_400],
    ['2h5m3s', 7_503_000],
    ['20ms', 20],
    ['644ms', 644],
    ['9m38.016s', 578_016],
    ['6.780999999s', 6781],
    ['59.977s', 59_977],
    ['2s', 2000],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('is null for anything else', () => {
    expect(parseDuration('')).toBeNull();
    expect(parseDuration('later')).toBeNull();
    expect(parseDuration('7.66')).toBeNull();
    expect(parseDuration('1m 2s')).toBeNull();
  });
});

describe('limitOf: Groq', () => {
  it('a per-minute token limit, with its exact wait', () => {
    const limit = limitOf(429, groq('tokens per minute (TPM)', 'tokens', '7.66s'), headers(), NOW);
    expect(limit).toEqual({
      kind: 'perMinute',
      metric: 'tokens',
      waitMs: 7660,
      tokensPerMinute: 8000,
    });
  });

  it('a per-minute request limit', () => {
    const limit = limitOf(429, groq('requests per minute (RPM)', 'requests', '2s'), headers(), NOW);
    expect(limit).toEqual({ kind: 'perMinute', metric: 'requests', waitMs: 2000 });
  });

  it('daily caps of requests and of tokens, with when they reset', () => {
    expect(
      limitOf(429, groq('requests per day (RPD)', 'requests', '1m26.4s'), headers(), NOW),
    ).toEqual({ kind: 'daily', metric: 'requests', waitMs: 86_400 });
    expect(limitOf(429, groq('tokens per day (TPD)', 'tokens', '2h5m3s'), headers(), NOW)).toEqual({
      kind: 'daily',
      metric: 'tokens',
      waitMs: 7_503_000,
    });
  });

  it('a request too large for the minute on its own (413)', () => {
    const body = {
      error: {
        message:
          'Request too large for model `openai/gpt-oss-120b` in organization `org_01abc` service tier `on_demand` on tokens per minute (TPM): Limit 8000, Requested 9123, please reduce your message size and try again.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    };
    expect(limitOf(413, body, headers(), NOW)).toEqual({
      kind: 'tooLarge',
      metric: 'tokens',
      waitMs: null,
      tokensPerMinute: 8000,
    });
  });

  it('the body wins over readable headers; headers serve when the body names no wait', () => {
    const exposed = headers({ 'retry-after': '9', 'x-ratelimit-reset-tokens': '8.5s' });
    const body = groq('tokens per minute (TPM)', 'tokens', '7.66s');
    expect(limitOf(429, body, exposed, NOW)?.waitMs).toBe(7660);
    const silent = { error: { message: 'Too many requests', type: 'tokens' } };
    expect(limitOf(429, silent, exposed, NOW)?.waitMs).toBe(9000);
    // No Retry-After: Groq's x-ratelimit-reset-tokens is the minute's, -requests the day's.
    const resets = headers({
      'x-ratelimit-reset-tokens': '8.5s',
      'x-ratelimit-reset-requests': '2m',
    });
    expect(limitOf(429, silent, resets, NOW)?.waitMs).toBe(8500);
    const unknownMetric = { error: { message: 'Too many requests' } };
    expect(limitOf(429, unknownMetric, resets, NOW)?.waitMs).toBe(120_000);
  });

  it('names no wait when neither the body nor a readable header does', () => {
    const limit = limitOf(429, { error: { message: 'Slow down' } }, headers(), NOW);
    expect(limit).toEqual({ kind: 'perMinute', metric: null, waitMs: null });
  });
});

describe('limitOf: OpenAI', () => {
  it('a key without credit is no rate limit, whatever its status', () => {
    const body = {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    };
    expect(limitOf(429, body, headers({ 'retry-after': '1' }), NOW)).toEqual({
      kind: 'noCredit',
      metric: null,
      waitMs: null,
    });
  });

  it("a 429 'Request too large' is too large, not a wait", () => {
    const body = {
      error: {
        message:
          'Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 31538. The input or output tokens must be reduced in order to run successfully.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    };
    expect(limitOf(429, body, headers(), NOW)?.kind).toBe('tooLarge');
  });

  it('reads waits in milliseconds', () => {
    const body = {
      error: {
        message:
          'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29937, Requested 385. Please try again in 644ms.',
        type: 'tokens',
      },
    };
    expect(limitOf(429, body, headers(), NOW)).toEqual({
      kind: 'perMinute',
      metric: 'tokens',
      waitMs: 644,
      tokensPerMinute: 30_000,
    });
  });
});

describe('limitOf: OpenRouter', () => {
  it('a free model daily cap, with the reset time the body carries', () => {
    const body = {
      error: {
        message:
          'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day',
        code: 429,
        metadata: {
          headers: {
            'X-RateLimit-Limit': '50',
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(NOW + 3_600_000),
          },
        },
      },
    };
    expect(limitOf(429, body, headers(), NOW)).toEqual({
      kind: 'daily',
      metric: 'requests',
      waitMs: 3_600_000,
    });
  });

  it('402: no credits', () => {
    const body = { error: { code: 402, message: 'Insufficient credits.' } };
    expect(limitOf(402, body, headers(), NOW)?.kind).toBe('noCredit');
  });
});

describe('limitOf: not a limit', () => {
  it('is null for other statuses and bodies that are not JSON', () => {
    expect(limitOf(400, { error: { message: 'bad' } }, headers(), NOW)).toBeNull();
    expect(limitOf(500, 'Internal error', headers(), NOW)).toBeNull();
    expect(limitOf(429, 'Too Many Requests', headers(), NOW)).toEqual({
      kind: 'perMinute',
      metric: null,
      waitMs: null,
    });
  });
});

/**
 * usageOf (issue 40, part 3): the usage a reply reports, as each provider shapes it; never a
 * guess, and never a throw, whatever the chunk holds.
 */
import { usageOf } from '../../../src/features/llm';

describe('usageOf: the shapes providers send', () => {
  it("OpenAI's whole reply: prompt, reply and the reply's reasoning tokens; no cost", () => {
    const completion = {
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 412,
        completion_tokens: 903,
        total_tokens: 1315,
        completion_tokens_details: { reasoning_tokens: 320, accepted_prediction_tokens: 0 },
      },
    };
    expect(usageOf(completion)).toEqual({
      promptTokens: 412,
      replyTokens: 903,
      reasoningTokens: 320,
      costUsd: null,
    });
  });

  it("OpenAI's stream: the usage-only last chunk reads, the chunks with usage null do not", () => {
    expect(usageOf({ choices: [{ delta: { content: 'Hi' } }], usage: null })).toBeNull();
    expect(
      usageOf({
        choices: [],
        usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 },
      }),
    ).toEqual({ promptTokens: 20, replyTokens: 4, reasoningTokens: null, costUsd: null });
  });

  it('Groq: x_groq.usage on the finishing chunk, with its timings; a top-level usage first', () => {
    const groqUsage = {
      queue_time: 0.16,
      prompt_tokens: 20,
      prompt_time: 0.012,
      completion_tokens: 4,
      completion_time: 0.009,
      total_tokens: 24,
      total_time: 0.022,
    };
    const finish = {
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      x_groq: { id: 'req_01', usage: groqUsage },
    };
    const expected = { promptTokens: 20, replyTokens: 4, reasoningTokens: null, costUsd: null };
    expect(usageOf(finish)).toEqual(expected);
    expect(usageOf({ ...finish, usage: groqUsage })).toEqual(expected);
    expect(usageOf({ choices: [], x_groq: { id: 'req_01', seed: 42 } })).toBeNull();
  });

  it('OpenRouter: its cost in dollars and the reasoning tokens', () => {
    const last = {
      object: 'chat.completion.chunk',
      choices: [],
      usage: {
        completion_tokens: 2,
        completion_tokens_details: { reasoning_tokens: 0 },
        cost: 0.95,
        cost_details: { upstream_inference_cost: 19 },
        prompt_tokens: 194,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        total_tokens: 196,
      },
    };
    expect(usageOf(last)).toEqual({
      promptTokens: 194,
      replyTokens: 2,
      reasoningTokens: 0,
      costUsd: 0.95,
    });
  });

  it('a free request costs 0, which is a cost', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 5, cost: 0 };
    expect(usageOf({ usage })?.costUsd).toBe(0);
  });
});

describe('usageOf: what is not a usage', () => {
  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a string', 'usage'],
    ['an array', [{ prompt_tokens: 1, completion_tokens: 1 }]],
    ['a chunk without usage', { choices: [{ delta: { content: 'x' } }] }],
    ['usage without the reply count', { usage: { prompt_tokens: 10 } }],
    ['counts as text', { usage: { prompt_tokens: '10', completion_tokens: '5' } }],
    ['a negative count', { usage: { prompt_tokens: -1, completion_tokens: 5 } }],
    ['a fraction of a token', { usage: { prompt_tokens: 1.5, completion_tokens: 5 } }],
    ['an infinite count', { usage: { prompt_tokens: Infinity, completion_tokens: 5 } }],
    ['NaN', { usage: { prompt_tokens: NaN, completion_tokens: 5 } }],
    ['usage as an array', { usage: [10, 5] }],
    ['x_groq without usage', { x_groq: 'req_01' }],
  ])('%s is null', (_name, value) => {
    expect(usageOf(value)).toBeNull();
  });

  it('a nonsense field is null, the counts still read', () => {
    expect(
      usageOf({
        usage: {
          prompt_tokens: 10,
          completion_tokens: 5,
          completion_tokens_details: { reasoning_tokens: 9 },
          cost: -3,
        },
      }),
    ).toEqual({ promptTokens: 10, replyTokens: 5, reasoningTokens: null, costUsd: null });
    expect(
      usageOf({
        usage: {
          prompt_tokens: 10,
          completion_tokens: 5,
          completion_tokens_details: 'lots',
          cost: '0.01',
        },
      }),
    ).toEqual({ promptTokens: 10, replyTokens: 5, reasoningTokens: null, costUsd: null });
  });

  it('a usage that is nonsense falls back to x_groq.usage', () => {
    expect(
      usageOf({
        usage: { total_tokens: 3 },
        x_groq: { usage: { prompt_tokens: 1, completion_tokens: 2 } },
      }),
    ).toEqual({ promptTokens: 1, replyTokens: 2, reasoningTokens: null, costUsd: null });
  });
});

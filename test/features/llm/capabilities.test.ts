/**
 * What a request asks of each provider (issue 11: capabilities decided from what the provider
 * documents, and given up when it refuses them).
 */
import {
  GENERATION_MAX_TOKENS,
  KEY_CHECK_MAX_TOKENS,
  PROVIDERS,
  ProviderError,
  REASONING_ALLOWANCE_TOKENS,
  TEMPERATURE,
  planRequest,
  providerById,
  refusedFeature,
  requestBody,
  type ModelFeature,
} from '../../../src/features/llm';

const groq = providerById('groq');
const openai = providerById('openai');
const MESSAGES = [{ role: 'user' as const, content: 'Reply in JSON.' }];

describe('planRequest', () => {
  test('Groq: a streamed turn gives up JSON mode (Groq refuses both at once); a whole reply keeps it', () => {
    const streamed = planRequest(groq, 'openai/gpt-oss-120b', { stream: true });
    expect(streamed).toMatchObject({ stream: true, jsonMode: false });
    const whole = planRequest(groq, 'openai/gpt-oss-120b', { stream: false });
    expect(whole).toMatchObject({ stream: false, jsonMode: true });
  });

  test('reasoning models are asked for low effort and get room to think; others get neither', () => {
    expect(planRequest(groq, 'openai/gpt-oss-20b').reasoning).toEqual({
      control: 'reasoning_effort',
      effort: 'low',
    });
    expect(planRequest(groq, 'openai/gpt-oss-20b').outputLimit.tokens).toBe(
      GENERATION_MAX_TOKENS + REASONING_ALLOWANCE_TOKENS,
    );
    // Groq's qwen3 takes none|default: thinking switched off, so no extra room.
    const qwen = planRequest(groq, 'qwen/qwen3.6-27b');
    expect(qwen.reasoning?.effort).toBe('none');
    expect(qwen.outputLimit.tokens).toBe(GENERATION_MAX_TOKENS);
    const plain = planRequest(groq, 'meta-llama/llama-4-scout-17b-16e-instruct');
    expect(plain.reasoning).toBeNull();
    // Groq documents max_tokens as deprecated: every model gets max_completion_tokens.
    expect(plain.outputLimit).toEqual({
      name: 'max_completion_tokens',
      tokens: GENERATION_MAX_TOKENS,
    });
    expect(plain.temperature).toBe(TEMPERATURE);
  });

  test("OpenAI's GPT-5 family: max_completion_tokens, the default temperature, JSON mode while streaming", () => {
    const plan = planRequest(openai, 'gpt-5-mini', { stream: true });
    expect(plan).toMatchObject({ stream: true, jsonMode: true, temperature: null });
    expect(plan.outputLimit.name).toBe('max_completion_tokens');
    expect(requestBody(plan, 'gpt-5-mini', MESSAGES)).toEqual({
      model: 'gpt-5-mini',
      messages: MESSAGES,
      max_completion_tokens: GENERATION_MAX_TOKENS + REASONING_ALLOWANCE_TOKENS,
      response_format: { type: 'json_object' },
      stream: true,
      // OpenAI sends a streamed reply's usage only when asked.
      stream_options: { include_usage: true },
      // GPT-5's lowest effort (DESIGN.md: free tiers first).
      reasoning_effort: 'minimal',
    });
    const chatModel = planRequest(openai, 'gpt-4.1-mini');
    expect(chatModel).toMatchObject({ temperature: TEMPERATURE, reasoning: null });
  });

  test('OpenRouter asks for reasoning effort with its own {reasoning: {effort}} object', () => {
    const plan = planRequest(providerById('openrouter'), 'openai/gpt-oss-120b');
    expect(requestBody(plan, 'openai/gpt-oss-120b', MESSAGES)).toMatchObject({
      reasoning: { effort: 'low' },
    });
    expect(requestBody(plan, 'openai/gpt-oss-120b', MESSAGES)).not.toHaveProperty(
      'reasoning_effort',
    );
  });

  test('the key check is short and plain: no JSON mode, stream, temperature', () => {
    for (const provider of PROVIDERS) {
      const plan = planRequest(provider, provider.defaultModel || 'any', { keyCheck: true });
      expect(plan).toMatchObject({ jsonMode: false, stream: false, temperature: null });
      expect(plan.outputLimit.tokens).toBeGreaterThanOrEqual(KEY_CHECK_MAX_TOKENS);
    }
  });

  test('a refused feature is not asked for again; max_tokens refused becomes max_completion_tokens', () => {
    const refused: ModelFeature[] = ['response_format', 'reasoning', 'temperature', 'max_tokens'];
    const lessons = refused.map((feature) => ({ feature }));
    const plan = planRequest(groq, 'openai/gpt-oss-120b', { lessons });
    expect(plan).toMatchObject({ jsonMode: false, reasoning: null, temperature: null });
    expect(plan.outputLimit.name).toBe('max_completion_tokens');
    const noStream = [{ feature: 'stream' as const }];
    expect(planRequest(groq, 'x', { stream: true, lessons: noStream }).stream).toBe(false);
    // Without streaming, JSON mode comes back (Groq allows it on whole replies).
    expect(planRequest(groq, 'x', { stream: true, lessons: noStream }).jsonMode).toBe(true);
  });
});

describe('refusedFeature', () => {
  const everything = {
    ...planRequest(providerById('openai'), 'gpt-5-mini', { stream: true }),
    temperature: TEMPERATURE,
    outputLimit: { name: 'max_tokens' as const, tokens: 1000 },
  };
  const refusal = (
    message: string,
    details: { code?: string; param?: string } = {},
    status = 400,
  ) => new ProviderError(status, message, details);

  test.each([
    ['`response_format` does not support streaming', {}, 'response_format'],
    [
      "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
      { param: 'messages' },
      'response_format',
    ],
    ["'response_format.type' must be 'json_schema' or 'text'", {}, 'response_format'],
    [
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      { param: 'max_tokens', code: 'unsupported_parameter' },
      'max_tokens',
    ],
    [
      "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.",
      { param: 'temperature', code: 'unsupported_value' },
      'temperature',
    ],
    [
      'reasoning_effort is not supported with this model',
      { param: 'reasoning_effort' },
      'reasoning',
    ],
    ['stream is not supported by this server', {}, 'stream'],
  ] as const)('%s → %s', (message, details, feature) => {
    expect(refusedFeature(refusal(message, details), everything)).toBe(feature);
  });

  test('a feature the request did not ask for is not the one refused', () => {
    const plain = planRequest(providerById('custom'), 'm', { stream: false });
    expect(refusedFeature(refusal('`response_format` does not support streaming'), plain)).toBe(
      null,
    );
  });

  test('a missing model, a refused key or a server error is not a refused feature', () => {
    const gone = refusal(
      'The model `llama-3.3-70b-versatile` does not exist or you do not have access to it.',
      { code: 'model_not_found' },
      404,
    );
    expect(refusedFeature(gone, everything)).toBeNull();
    const invalid = refusal('meta-llama/llama-3.3-70b-instruct:free is not a valid model ID');
    expect(invalid.isModelUnavailable).toBe(true);
    expect(refusedFeature(invalid, everything)).toBeNull();
    expect(refusedFeature(refusal('Invalid API Key', {}, 401), everything)).toBeNull();
    expect(refusedFeature(refusal('stream broke', {}, 500), everything)).toBeNull();
    expect(refusedFeature(new Error('response_format'), everything)).toBeNull();
    // A provider's upstream failing is not a refusal of streaming.
    expect(
      refusedFeature(refusal('Upstream error from Fireworks: overloaded'), everything),
    ).toBeNull();
  });

  test('a model named in a refusal of a feature is not a model gone', () => {
    const notSupported = refusal(
      'This model does not support response_format json_object. Feature not available.',
    );
    expect(notSupported.isModelUnavailable).toBe(false);
    expect(refusedFeature(notSupported, everything)).toBe('response_format');
  });

  test('the parameter the provider names decides, whatever its words say', () => {
    const named = refusal('Invalid value for this model.', { param: 'reasoning_effort' });
    expect(refusedFeature(named, everything)).toBe('reasoning');
    const notAsked = planRequest(providerById('custom'), 'm');
    expect(refusedFeature(named, notAsked)).toBeNull();
  });
});

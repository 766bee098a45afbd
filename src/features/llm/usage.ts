/**
 * What a turn cost (issue 40, part 3): the token usage a provider reports with its reply, read
 * as each provider shapes it. Only what the provider says is read; nothing is counted or priced
 * here, so a provider that reports nothing gives null ("not reported"), never a guess.
 *
 * The shapes read, as the providers document them:
 * - OpenAI and compatible servers: `usage` {prompt_tokens, completion_tokens,
 *   completion_tokens_details: {reasoning_tokens}} in a whole reply; in a stream, only when
 *   asked for with stream_options {include_usage: true}, on "an additional chunk ... before the
 *   data: [DONE] message", whose choices are empty, the other chunks carrying `usage: null`
 *   (OpenAI's API reference, ChatCompletionStreamOptions). Reasoning tokens are part of
 *   completion_tokens (platform.openai.com/docs/guides/reasoning).
 * - Groq: the finishing chunk carries x_groq {id, usage} whether asked or not; asked with
 *   include_usage, the same usage also at that chunk's top level and on a usage-only chunk
 *   after it (a stream recorded from api.groq.com, charmbracelet/fantasy providertests
 *   testdata TestGroqCommon simple_streaming.yaml). Its usage adds timings (queue_time...).
 * - OpenRouter: `usage` "in the last SSE message for streaming responses, or in the complete
 *   response", always (stream_options and usage {include} are deprecated and have no effect),
 *   with `cost` ("the total amount charged to your account", in credits, which are US dollars)
 *   and completion_tokens_details.reasoning_tokens (openrouter.ai/docs, Usage Accounting).
 */

export interface TokenUsage {
  /** Tokens of the prompt, as the provider counted them. */
  promptTokens: number;
  /** Tokens of the reply, reasoning included (OpenAI's completion_tokens). */
  replyTokens: number;
  /** Of replyTokens, those spent thinking; null when the provider does not say. */
  reasoningTokens: number | null;
  /** What the provider says this request cost in US dollars (OpenRouter's usage.cost); null when it does not say. */
  costUsd: number | null;
}

type Fields = Record<string, unknown>;

const fieldsOf = (value: unknown): Fields | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : null;

/** A count of tokens: a whole number, not negative; null for anything else. */
function tokensOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function costOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** One `usage` object; null when its two counts are not both there and sensible. */
function readUsage(value: unknown): TokenUsage | null {
  const usage = fieldsOf(value);
  if (usage === null) return null;
  const promptTokens = tokensOf(usage.prompt_tokens);
  const replyTokens = tokensOf(usage.completion_tokens);
  if (promptTokens === null || replyTokens === null) return null;
  const thinking = tokensOf(fieldsOf(usage.completion_tokens_details)?.reasoning_tokens);
  // Thinking is counted within the reply: more of it than the reply is a number to distrust.
  const reasoningTokens = thinking !== null && thinking <= replyTokens ? thinking : null;
  return { promptTokens, replyTokens, reasoningTokens, costUsd: costOf(usage.cost) };
}

/**
 * The usage a stream chunk or a whole completion reports: its `usage` (OpenAI, OpenRouter,
 * Groq when asked), else Groq's x_groq.usage; null when it reports none (OpenAI's `usage:
 * null` on the chunks before the last) or none that reads as counts. Never throws.
 */
export function usageOf(chunkOrCompletion: unknown): TokenUsage | null {
  const reply = fieldsOf(chunkOrCompletion);
  if (reply === null) return null;
  return readUsage(reply.usage) ?? readUsage(fieldsOf(reply.x_groq)?.usage);
}

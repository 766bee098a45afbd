/**
 * A cheap estimate of how many tokens a provider counts for a text, for keeping each request
 * within a free tier's per-minute budget (Groq counts prompt + max_tokens when a request
 * arrives). It errs on the high side against o200k (gpt-oss's tokenizer, measured with
 * gpt-tokenizer in test/features/llm/tokens.test.ts): English prose runs about 4.7 characters
 * a token, the game's prompts about 3.9, and a Hangul syllable about 0.85 of a token. A real
 * tokenizer would add hundreds of kilobytes to the page for a figure this one bounds.
 */

/** Characters of Latin-script text (and punctuation, digits, spaces) counted as one token. */
const CHARS_PER_TOKEN = 3.5;
/** Hangul, kana and CJK ideographs: each character counted as a token. */
const WIDE_SCRIPT =
  /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;
/** What a chat message costs beyond its text (role and framing), and the reply's priming. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
export const REPLY_PRIMING_TOKENS = 3;

export function estimateTokens(text: string): number {
  const wide = text.match(WIDE_SCRIPT)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / CHARS_PER_TOKEN);
}

/** The prompt of a chat request as a provider counts it: each message and its framing. */
export function estimatePromptTokens(messages: readonly string[]): number {
  return (
    messages.reduce((sum, text) => sum + estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS, 0) +
    REPLY_PRIMING_TOKENS
  );
}

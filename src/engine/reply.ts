/**
 * Reading the one JSON object a language model's reply should hold (SPEC.md sections 5 and 8):
 * the reply as it comes (readReply), the thinking some models write before it, and the text of
 * a field. A reply that is not valid JSON is mended by replyRepair.ts (jsonrepair), which the
 * game loads only when a reply needs it.
 */
import { withoutHiddenCharacters } from './text';

export const EMPTY_REPLY_MESSAGE = 'Invalid response: response is empty or not a string';
export const UNPARSEABLE_REPLY_MESSAGE = 'Failed to parse JSON response after multiple attempts';

export type ModelReplyFailure = 'empty' | 'unparseable';

/** The only error parseModelReply throws; its message is the one SPEC.md section 8 names. */
export class ModelReplyError extends Error {
  readonly reason: ModelReplyFailure;

  constructor(reason: ModelReplyFailure, options?: { cause?: unknown }) {
    super(reason === 'empty' ? EMPTY_REPLY_MESSAGE : UNPARSEABLE_REPLY_MESSAGE, options);
    this.name = 'ModelReplyError';
    this.reason = reason;
  }
}

const CODE_FENCE = '```';
const THINK_OPEN = /<think(?:ing)?>/i;
const THINK_CLOSE = /<\/think(?:ing)?>/gi;

/**
 * A reply without the thinking some models write into it (qwen3, DeepSeek-R1: a
 * <think>...</think> block before the answer). Everything up to the last closing tag is thinking
 * (newer models open the block in the prompt and only close it); an opening tag not closed yet
 * starts thinking that is still being written.
 */
export function withoutThinking(reply: string): string {
  let answer = reply;
  const closings = [...reply.matchAll(THINK_CLOSE)];
  const last = closings.at(-1);
  if (last) answer = reply.slice(last.index + last[0].length);
  const open = answer.search(THINK_OPEN);
  return open === -1 ? answer : answer.slice(0, open);
}

/** The model is writing a <think> block it has not closed yet. */
export function stillThinking(reply: string): boolean {
  // Asked on every streamed token: a reply with no tag in it is answered without a scan.
  if (!reply.includes('<')) return false;
  const closings = [...reply.matchAll(THINK_CLOSE)];
  const last = closings.at(-1);
  const after = last ? reply.slice(last.index + last[0].length) : reply;
  return THINK_OPEN.test(after);
}
const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * The first '{' to the last '}', which drops code fences and prose around the object. A reply
 * cut off before its closing brace runs to the end, less a closing code fence.
 */
function outermostObject(reply: string): string {
  const start = reply.indexOf('{');
  if (start === -1) return reply;
  const end = reply.lastIndexOf('}');
  if (end > start) return reply.slice(start, end + 1);
  const tail = reply.slice(start).trimEnd();
  return tail.endsWith(CODE_FENCE) ? tail.slice(0, -CODE_FENCE.length) : tail;
}

/** JSON.parse, with line breaks inside strings read as spaces (the game shows one paragraph). */
export function parseWithSpaces(json: string): unknown {
  return JSON.parse(json, (_key, value: unknown) =>
    typeof value === 'string' ? value.replace(LINE_BREAK, ' ') : value,
  );
}

/** The object in a parsed reply, or a TypeError for anything else. */
export function asReplyObject(parsed: unknown): Record<string, unknown> {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TypeError(`Model reply is not a JSON object: ${JSON.stringify(parsed)}`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * The answer of a reply, without its thinking, and the text from its outermost braces (fences
 * and prose around them dropped). Throws ModelReplyError('empty') for an empty reply.
 */
export function replyObjectText(reply: unknown): string {
  if (typeof reply !== 'string') throw new ModelReplyError('empty');
  const answer = withoutThinking(reply);
  if (answer.trim() === '') throw new ModelReplyError('empty');
  return outermostObject(answer);
}

/**
 * The reply's object when it is valid JSON as written (SPEC.md section 5; line breaks in its
 * strings become spaces), or null when it needs mending (replyRepair.ts parseModelReply).
 * Throws ModelReplyError('empty') for an empty reply.
 */
export function readReply(reply: unknown): Record<string, unknown> | null {
  const text = replyObjectText(reply);
  try {
    return asReplyObject(parseWithSpaces(text));
  } catch {
    return null;
  }
}

/**
 * The first of `keys` whose value is a non-blank string, as it may be shown: trimmed, without
 * characters that hide or reverse text (text.ts). '' when none is.
 */
export function pickText(reply: Record<string, unknown>, ...keys: string[]): string {
  for (const key of keys) {
    const value = reply[key];
    const text = typeof value === 'string' ? withoutHiddenCharacters(value).trim() : '';
    if (text !== '') return text;
  }
  return '';
}

/** Reading the one JSON object a language model's reply should hold (SPEC.md sections 5 and 8). */
import { jsonrepair } from 'jsonrepair';

import { stripParentheticals } from './options';

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
  const closings = [...reply.matchAll(THINK_CLOSE)];
  const last = closings.at(-1);
  const after = last ? reply.slice(last.index + last[0].length) : reply;
  return THINK_OPEN.test(after);
}
const LINE_BREAK = /\r\n|\r|\n/g;
const SMART_DOUBLE_QUOTES = '“”„‟«»';

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

function parseWithSpaces(json: string): unknown {
  return JSON.parse(json, (_key, value: unknown) =>
    typeof value === 'string' ? value.replace(LINE_BREAK, ' ') : value,
  );
}

/** Repairs and parses the text; raw newlines in the text become spaces. Throws on failure. */
function repairToObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseWithSpaces(text);
  } catch {
    // Valid JSON skips jsonrepair, which can mangle some valid text (it reads ["["] as ["",[""]]).
    parsed = parseWithSpaces(jsonrepair(text));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TypeError(`Model reply is not a JSON object: ${JSON.stringify(parsed)}`);
  }
  return parsed as Record<string, unknown>;
}

// After a closing quote comes a colon, a closing bracket, the next entry, or the end.
const AFTER_CLOSING_QUOTE = /\s*(?:$|[:}\]"]|,\s*(?:$|["{[\]}\d-]|[\p{L}\p{N}_]+\s*:))/uy;

/**
 * Drops the quotes inside a string value that do not end it: 'He said "run" now' loses
 * the inner pair, and smart quotes inside a value go too. Smart quotes outside a value
 * are taken as JSON's own.
 */
function removeStrayQuotes(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charAt(i);
    const isQuote = ch === '"' || SMART_DOUBLE_QUOTES.includes(ch);
    if (!inString) {
      if (isQuote) inString = true;
      out += isQuote ? '"' : ch;
    } else if (ch === '\\') {
      out += ch + text.charAt(i + 1);
      i += 1;
    } else if (ch === '"') {
      AFTER_CLOSING_QUOTE.lastIndex = i + 1;
      if (AFTER_CLOSING_QUOTE.test(text)) {
        inString = false;
        out += ch;
      }
    } else if (!isQuote) {
      out += ch;
    }
  }
  return out;
}

/**
 * The JSON object in a model's reply (SPEC.md section 5). A <think> block goes first (it is
 * not the reply, and may hold braces of its own). First pass: fences and prose
 * around the outermost braces go, and jsonrepair mends the rest. Second, lenient pass:
 * parenthesised remarks and stray quotes inside values go too. Throws only ModelReplyError.
 */
export function parseModelReply(reply: unknown): Record<string, unknown> {
  if (typeof reply !== 'string') throw new ModelReplyError('empty');
  const answer = withoutThinking(reply);
  if (answer.trim() === '') throw new ModelReplyError('empty');
  const text = outermostObject(answer);
  try {
    return repairToObject(text);
  } catch {
    // Fall through to the lenient pass.
  }
  try {
    return repairToObject(removeStrayQuotes(stripParentheticals(text)));
  } catch (cause) {
    throw new ModelReplyError('unparseable', { cause });
  }
}

/** The first of `keys` whose value is a non-blank string, trimmed; '' when none is. */
export function pickText(reply: Record<string, unknown>, ...keys: string[]): string {
  for (const key of keys) {
    const value = reply[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return '';
}

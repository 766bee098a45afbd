/**
 * Mending a model's reply that is not valid JSON (SPEC.md section 5): jsonrepair, with inner
 * quotes escaped first and a lenient second pass. Apart from reply.ts so that the browser loads
 * jsonrepair only when a reply needs it (the game's askModel imports this on demand).
 */
import { jsonrepair } from 'jsonrepair';

import { mendInnerQuotes } from './innerQuotes';
import { stripParentheticals } from './options';
import { ModelReplyError, asReplyObject, parseWithSpaces, replyObjectText } from './reply';

/**
 * Repairs and parses the text; raw newlines in the text become spaces. Throws on failure. Inner
 * quotes are escaped before jsonrepair sees them: it reads 'said "No", and left' as a string
 * and a key, and so "succeeds" with half the text gone.
 */
function repairToObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseWithSpaces(text);
  } catch {
    // Valid JSON skips jsonrepair, which can mangle some valid text (it reads ["["] as ["",[""]]).
    parsed = parseWithSpaces(jsonrepair(mendInnerQuotes(text, 'escape')));
  }
  return asReplyObject(parsed);
}

/**
 * The JSON object in a model's reply (SPEC.md section 5). A <think> block goes first (it is
 * not the reply, and may hold braces of its own). First pass: fences and prose around the
 * outermost braces go, quotes inside strings are escaped, and jsonrepair mends the rest.
 * Second, lenient pass: parenthesised remarks go and stray quotes inside values are dropped.
 * Throws only ModelReplyError.
 */
export function parseModelReply(reply: unknown): Record<string, unknown> {
  const text = replyObjectText(reply);
  try {
    return repairToObject(text);
  } catch {
    // Fall through to the lenient pass.
  }
  try {
    return repairToObject(mendInnerQuotes(stripParentheticals(text), 'drop'));
  } catch (cause) {
    throw new ModelReplyError('unparseable', { cause });
  }
}

/**
 * The narrative of a JSON reply while it is still streaming in: the value so far of one of its
 * string fields, read by closing the open string and object with jsonrepair. What cannot be
 * repaired as a whole is tried again up to where jsonrepair gave up, and then up to the last
 * closing brace; what still cannot be read shows as nothing yet rather than as an error.
 */
import { jsonrepair } from 'jsonrepair';

import { withoutThinking } from '../../engine/reply';

const LINE_BREAK = /\r\n|\r|\n/g;
/** Attempts at a prefix when the text so far cannot be repaired as a whole. */
const MAX_REPAIR_ATTEMPTS = 4;

function repairPartial(text: string): unknown {
  let candidate = text;
  for (let attempt = 0; attempt < MAX_REPAIR_ATTEMPTS && candidate !== ''; attempt += 1) {
    try {
      return JSON.parse(jsonrepair(candidate)) as unknown;
    } catch (error) {
      // jsonrepair reports where it gave up; what came before that is a repairable prefix.
      const position = (error as { position?: unknown }).position;
      if (typeof position !== 'number' || position <= 0 || position >= candidate.length) {
        return undefined;
      }
      candidate = candidate.slice(0, position);
    }
  }
  return undefined;
}

/**
 * The value so far of one string field of a JSON reply still streaming in (e.g. storyStart,
 * storySegment), for showing the narrative while it is written. jsonrepair closes the open
 * string and object; '' while the field has not started, or when the text cannot be read. A
 * model's <think> block is not the reply: nothing in it is read.
 */
export function partialField(streamed: string, field: string): string {
  const text = withoutThinking(streamed);
  const start = text.indexOf('{');
  if (start === -1) return '';
  let parsed = repairPartial(text.slice(start));
  if (parsed === undefined) {
    // Prose after a complete object, or a remark outside the strings: try up to the last brace.
    const end = text.lastIndexOf('}');
    if (end > start) parsed = repairPartial(text.slice(start, end + 1));
  }
  if (typeof parsed !== 'object' || parsed === null) return '';
  const value = (parsed as Record<string, unknown>)[field];
  // Newlines become spaces, as parseModelReply does with the finished reply.
  return typeof value === 'string' ? value.replace(LINE_BREAK, ' ') : '';
}

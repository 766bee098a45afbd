/**
 * The narrative of a JSON reply while it is still streaming in: the value so far of one of its
 * string fields (storyStart, storySegment). A reader is fed the whole text so far each time
 * more arrives and reads only what is new, so a frame costs the same at turn 100 as at turn 10
 * (jsonrepair mends a finished reply that needs it: engine/replyRepair.ts). It finds the
 * object after any prose, code fence or <think> block, follows strings and nesting to the
 * field at the object's top level (quoted or bare key), and decodes the string's escapes as
 * they come. Line breaks read as spaces, as the finished reply is read. A field that is
 * missing or not a string reads as ''.
 */
import { stillThinking, withoutThinking } from '../../engine/reply';

const THINK_CLOSE = /<\/think(?:ing)?>/i;
/** Characters kept from the last read to find a closing think tag cut between two reads. */
const TAG_OVERLAP = 12;
/** What a JSON escape stands for (\uXXXX apart). */
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

type Phase = 'before' | 'object' | 'value' | 'done';

export interface FieldReader {
  /** The field's value so far, given the whole reply so far. */
  read(textSoFar: string): string;
}

export function fieldReader(field: string): FieldReader {
  let phase: Phase = 'before';
  let consumed = 0;
  let value = '';
  // Inside the object: nesting depth, strings, and the last top-level key seen.
  let depth = 0;
  let inString = false;
  let escaped = false;
  let token = '';
  let key: string | null = null;
  let afterColon = false;
  // Inside the value: an escape being read, and a CR whose LF is one line break with it.
  let escape: string | null = null;
  let afterCr = false;

  // Where the object began, and how much of the reply the last read had seen.
  let objectBegin = 0;
  let seen = 0;
  const restart = () => {
    phase = 'before';
    consumed = 0;
    value = '';
  };

  /** Where the reply's object starts, once no <think> block is open: the first '{' after it. */
  function objectStart(text: string): number {
    if (stillThinking(text)) return -1;
    const answer = withoutThinking(text);
    const start = answer.indexOf('{');
    return start === -1 ? -1 : text.length - answer.length + start;
  }

  function readObject(char: string) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      else if (depth === 1 && !afterColon) token += char;
      return;
    }
    if (char === '"') {
      if (depth === 1 && afterColon && key === field) {
        phase = 'value';
        return;
      }
      inString = true;
      if (depth === 1 && !afterColon) token = '';
    } else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) phase = 'done';
    } else if (depth === 1 && char === ':' && !afterColon) {
      key = token.trim();
      afterColon = true;
    } else if (depth === 1 && char === ',') {
      afterColon = false;
      token = '';
    } else if (depth === 1 && afterColon && key === field && !/\s/.test(char)) {
      phase = 'done'; // the field is there, but not a string
    } else if (depth === 1 && !afterColon) token += char; // a bare key
  }

  /** Adds decoded text to the value; a line break (CR, LF or CR LF) is one space. */
  function append(decoded: string) {
    for (const char of decoded) {
      if (char === '\n' && afterCr) {
        afterCr = false;
        continue;
      }
      afterCr = char === '\r';
      value += char === '\r' || char === '\n' ? ' ' : char;
    }
  }

  function readValue(char: string) {
    if (escape !== null) {
      escape += char;
      if (escape.startsWith('u') && escape.length < 5) return;
      let decoded = ESCAPES[escape] ?? escape;
      if (escape.startsWith('u')) {
        const code = Number.parseInt(escape.slice(1), 16);
        decoded = Number.isNaN(code) ? '' : String.fromCharCode(code);
      }
      escape = null;
      append(decoded);
    } else if (char === '\\') escape = '';
    else if (char === '"') phase = 'done';
    else append(char);
  }

  return {
    read(text) {
      if (text.length < seen) restart();
      // A model that thinks without an opening tag: its object comes after the closing one.
      const fresh = text.slice(Math.max(objectBegin, seen - TAG_OVERLAP));
      if (phase !== 'before' && THINK_CLOSE.test(fresh)) restart();
      seen = text.length;
      if (phase === 'before') {
        const start = objectStart(text);
        if (start === -1) return '';
        phase = 'object';
        objectBegin = start + 1;
        consumed = start + 1;
        depth = 1;
        [inString, escaped, token, key, afterColon, escape, afterCr] = [
          false,
          false,
          '',
          null,
          false,
          null,
          false,
        ];
      }
      for (; consumed < text.length && phase !== 'done'; consumed += 1) {
        const char = text[consumed]!;
        if (phase === 'object') readObject(char);
        else readValue(char);
      }
      // A value still being written is shown without the space it may end on for now.
      return phase === 'value' ? value.trimEnd() : value;
    },
  };
}

/** The value so far of one string field of a reply read at once (a reader fed one text). */
export function partialField(streamed: string, field: string): string {
  return fieldReader(field).read(streamed);
}

import fc from 'fast-check';
import { jsonrepair } from 'jsonrepair';

import {
  EMPTY_REPLY_MESSAGE,
  ModelReplyError,
  UNPARSEABLE_REPLY_MESSAGE,
  pickText,
  readReply,
  stillThinking,
  withoutThinking,
} from '../../src/engine/reply';
import { parseModelReply } from '../../src/engine/replyRepair';

function failureOf(reply: unknown): ModelReplyError {
  try {
    parseModelReply(reply);
  } catch (error) {
    if (error instanceof ModelReplyError) return error;
    throw error;
  }
  throw new Error(`Expected parseModelReply to fail on ${JSON.stringify(reply)}`);
}

function firstPassFails(text: string): boolean {
  try {
    JSON.parse(jsonrepair(text));
    return false;
  } catch {
    return true;
  }
}

describe('parseModelReply, first pass', () => {
  it('reads a well-formed object', () => {
    expect(parseModelReply('{"storyStart": "Rain falls.", "options": []}')).toEqual({
      storyStart: 'Rain falls.',
      options: [],
    });
  });

  it('strips markdown code fences', () => {
    expect(parseModelReply('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(parseModelReply('```\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it('ignores prose before and after the object', () => {
    const reply = 'Sure! Here is your story:\n{"storySegment": "The gate opens."}\nEnjoy the tale.';
    expect(parseModelReply(reply)).toEqual({ storySegment: 'The gate opens.' });
  });

  it('quotes unquoted English keys', () => {
    expect(parseModelReply('{storyStart: "Dawn.", isFinal: false}')).toEqual({
      storyStart: 'Dawn.',
      isFinal: false,
    });
  });

  it('quotes unquoted Hangul keys', () => {
    // jsonrepair 3 treats Hangul as identifier letters, so no pre-step is needed.
    expect(jsonrepair('{스토리: "x"}')).toBe('{"스토리": "x"}');
    expect(
      parseModelReply('{스토리: "안녕", 선택지: [{텍스트: "도망친다", 위험도: "높음"}]}'),
    ).toEqual({
      스토리: '안녕',
      선택지: [{ 텍스트: '도망친다', 위험도: '높음' }],
    });
    expect(parseModelReply('{이름2: "민수", key_1: 1}')).toEqual({ 이름2: '민수', key_1: 1 });
  });

  it('removes trailing commas', () => {
    expect(parseModelReply('{"a": [1, 2,], "b": "c",}')).toEqual({ a: [1, 2], b: 'c' });
  });

  it('turns raw newlines inside strings into spaces', () => {
    expect(parseModelReply('{"storyStart": "Line one.\nLine two.\r\nLine three."}')).toEqual({
      storyStart: 'Line one. Line two. Line three.',
    });
  });

  it('accepts single-quoted strings', () => {
    expect(parseModelReply("{'text': 'Run', 'risk': 'high'}")).toEqual({
      text: 'Run',
      risk: 'high',
    });
  });

  it('inserts missing commas and drops comments', () => {
    expect(parseModelReply('{"a": "x"\n"b": 2 // the count\n}')).toEqual({ a: 'x', b: 2 });
    expect(parseModelReply('{"a": 1, /* note */ "b": 2}')).toEqual({ a: 1, b: 2 });
  });

  it('completes a truncated reply', () => {
    expect(parseModelReply('{"storySegment": "The torch gutt')).toEqual({
      storySegment: 'The torch gutt',
    });
    expect(parseModelReply('```json\n{"options": [{"text": "Go", "risk": "low"')).toEqual({
      options: [{ text: 'Go', risk: 'low' }],
    });
  });

  it('keeps an inner quote that jsonrepair can already place', () => {
    expect(parseModelReply('{"a": "He said "run" now"}')).toEqual({ a: 'He said "run" now' });
  });

  it('keeps every word and quote of unescaped dialogue, where jsonrepair alone loses half', () => {
    const reply =
      '{"storySegment": "She whispered "No", and the guard said "Hold the line" twice."}';
    expect(JSON.parse(jsonrepair(reply)).storySegment).toBe('She whispered "No');
    expect(parseModelReply(reply)).toEqual({
      storySegment: 'She whispered "No", and the guard said "Hold the line" twice.',
    });
  });

  it('keeps dialogue that ends a value, and inner quotes in option text', () => {
    const reply =
      '{"storySegment": "He roared "Charge!"", "options": [{"text": "Shout "Wait"", "risk": "low"}]}';
    expect(parseModelReply(reply)).toEqual({
      storySegment: 'He roared "Charge!"',
      options: [{ text: 'Shout "Wait"', risk: 'low' }],
    });
  });

  it('keeps smart quotes inside a value as they are', () => {
    expect(parseModelReply('{"a": "He said “go” and "ran"."}')).toEqual({
      a: 'He said “go” and "ran".',
    });
  });
});

describe('parseModelReply, lenient pass', () => {
  it('removes a parenthesised remark after a value', () => {
    const reply = '{"risk": "high" (very risky), "text": "Leap"}';
    expect(firstPassFails(reply)).toBe(true);
    expect(parseModelReply(reply)).toEqual({ risk: 'high', text: 'Leap' });
  });

  // A remark after a value breaks the first pass; the lenient one then drops inner quotes.
  it('removes stray inner quotes from a value', () => {
    const reply = '{"storyStart": "She whispered, "Help me," and fell.", "risk": "high" (very)}';
    expect(firstPassFails(reply)).toBe(true);
    expect(parseModelReply(reply)).toEqual({
      storyStart: 'She whispered, Help me, and fell.',
      risk: 'high',
    });
  });

  it('removes smart quotes inside a value', () => {
    const reply = '{"a": "He said, "Go!" (she “meant” it) and left.", "b": "ok" (sure)}';
    expect(firstPassFails(reply)).toBe(true);
    expect(parseModelReply(reply)).toEqual({ a: 'He said, Go! and left.', b: 'ok' });
  });
});

describe('parseModelReply failures', () => {
  it.each([undefined, null, 42, {}, ['{"a": 1}']])(
    'rejects the non-string %p as empty',
    (reply) => {
      const error = failureOf(reply);
      expect(error.reason).toBe('empty');
      expect(error.message).toBe('Invalid response: response is empty or not a string');
    },
  );

  it.each(['', '   ', '\n\t '])('rejects the blank string %p as empty', (reply) => {
    expect(failureOf(reply).message).toBe(EMPTY_REPLY_MESSAGE);
  });

  it('reads an object wrapped in an array, since only the outermost braces count', () => {
    expect(parseModelReply('[{"storyStart": "Dusk."}]')).toEqual({ storyStart: 'Dusk.' });
  });

  it.each(['[1, 2, 3]', '["a", "b"]', '"just a string"', '42', 'true', 'null'])(
    'rejects %p, which is not an object',
    (reply) => {
      const error = failureOf(reply);
      expect(error.reason).toBe('unparseable');
      expect(error.message).toBe('Failed to parse JSON response after multiple attempts');
    },
  );

  it.each(['I cannot help with that.', ':::', '{"a": 1} and {"b": 2}', '{{{'])(
    'rejects the garbage %p',
    (reply) => {
      expect(failureOf(reply).message).toBe(UNPARSEABLE_REPLY_MESSAGE);
    },
  );

  it('is an Error named after itself', () => {
    const error = failureOf('nonsense');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ModelReplyError');
  });
});

describe('parseModelReply properties', () => {
  const SPEC_MESSAGES = [EMPTY_REPLY_MESSAGE, UNPARSEABLE_REPLY_MESSAGE];

  function returnsObjectOrModelReplyError(reply: string): void {
    let result: unknown;
    try {
      result = parseModelReply(reply);
    } catch (error) {
      expect(error).toBeInstanceOf(ModelReplyError);
      expect(SPEC_MESSAGES).toContain((error as ModelReplyError).message);
      return;
    }
    expect(typeof result).toBe('object');
    expect(result).not.toBeNull();
    expect(Array.isArray(result)).toBe(false);
  }

  const jsonText = fc.jsonValue().map((value) => JSON.stringify(value));
  const jsonTokens = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ':',
    ',',
    '"',
    "'",
    '(',
    ')',
    '“',
    '”',
    '\\',
    '\n',
    ' ',
    '//',
    '/*',
    '```',
    'text',
    '스토리',
    'true',
    'null',
    '1',
    '-',
    'risk',
  );
  const jsonish = fc.array(fc.oneof(jsonTokens, fc.string({ maxLength: 4 })), { maxLength: 40 });

  it('on any string', () => {
    fc.assert(fc.property(fc.string(), returnsObjectOrModelReplyError), { numRuns: 300 });
  });

  it('on any full-Unicode string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), returnsObjectOrModelReplyError), {
      numRuns: 300,
    });
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), returnsObjectOrModelReplyError), {
      numRuns: 300,
    });
  });

  it('on JSON-ish text', () => {
    fc.assert(
      fc.property(jsonish, (tokens) => returnsObjectOrModelReplyError(tokens.join(''))),
      { numRuns: 500 },
    );
  });

  it('on serialised JSON, with prose and fences around it', () => {
    fc.assert(
      fc.property(jsonText, fc.string(), fc.string(), (json, before, after) => {
        returnsObjectOrModelReplyError(json);
        returnsObjectOrModelReplyError(`${before}\n\`\`\`json\n${json}\n\`\`\`\n${after}`);
      }),
      { numRuns: 300 },
    );
  });

  it('reads back any serialised object without line breaks', () => {
    const object = fc
      .dictionary(fc.string(), fc.jsonValue())
      .map((value) => JSON.stringify(value))
      .filter((json) => !/\\[rn]/.test(json));
    fc.assert(
      fc.property(object, (json) => {
        expect(parseModelReply(json)).toEqual(JSON.parse(json));
      }),
      { numRuns: 300 },
    );
  });
});

describe('readReply: the reply as written, before any mending', () => {
  it('reads valid JSON, fenced or among prose or after thinking, as parseModelReply does', () => {
    const json = '{"storySegment": "Dust rises.\\nThen silence.", "options": []}';
    for (const reply of [json, `\`\`\`json\n${json}\n\`\`\``, `<think>Hm.</think> ${json}`]) {
      expect(readReply(reply)).toEqual(parseModelReply(reply));
    }
    expect(readReply(json)).toEqual({ storySegment: 'Dust rises. Then silence.', options: [] });
  });

  it('is null for a reply that needs mending, and says an empty reply is empty', () => {
    expect(readReply('{"storySegment": "cut off')).toBeNull();
    // A raw line break inside a string is not JSON (jsonrepair mends it).
    expect(readReply('{"storySegment": "One\nTwo"}')).toBeNull();
    expect(readReply("{storySegment: 'single quotes'}")).toBeNull();
    expect(readReply('["not", "an object"]')).toBeNull();
    expect(failureOf('   ').reason).toBe('empty');
    expect(() => readReply('<think>only thinking</think>')).toThrow(ModelReplyError);
  });

  it('agrees with parseModelReply on every object it reads', () => {
    const object = fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value));
    fc.assert(
      fc.property(object, fc.string(), (json, noise) => {
        for (const reply of [json, `${noise}${json}`]) {
          const read = (() => {
            try {
              return readReply(reply);
            } catch {
              return null;
            }
          })();
          if (read !== null) expect(read).toEqual(parseModelReply(reply));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('pickText', () => {
  const reply = { storyStart: '  ', storySegment: '  The bridge holds.  ', count: 3, empty: '' };

  it('returns the first non-blank string, trimmed', () => {
    expect(pickText(reply, 'storyStart', 'storySegment')).toBe('The bridge holds.');
    expect(pickText(reply, 'storySegment', 'storyStart')).toBe('The bridge holds.');
  });

  it('skips values that are not strings', () => {
    expect(pickText(reply, 'count', 'storySegment')).toBe('The bridge holds.');
  });

  it('returns an empty string when no key has text', () => {
    expect(pickText(reply, 'storyStart', 'count', 'empty', 'missing')).toBe('');
    expect(pickText(reply)).toBe('');
    expect(pickText({}, 'toString', 'constructor')).toBe('');
  });
});

describe('thinking left in a reply (qwen3, DeepSeek-R1: issue 11)', () => {
  const answer = '{"storySegment": "The gate opens.", "options": []}';

  test('a <think> block, braces and all, is not the reply', () => {
    const reply = `<think>\nThe player wants {drama}. I'll write {"storySegment": "wrong"}.\n</think>\n\n${answer}`;
    expect(withoutThinking(reply).trim()).toBe(answer);
    expect(parseModelReply(reply).storySegment).toBe('The gate opens.');
  });

  test('a block the prompt opened (only the closing tag is written) is thinking too', () => {
    expect(parseModelReply(`planning {x}\n</think>${answer}`).storySegment).toBe('The gate opens.');
  });

  test('a block not closed yet is still thinking; a reply of nothing but thinking is empty', () => {
    expect(stillThinking('<think>Let me see { the')).toBe(true);
    expect(stillThinking(`<think>done</think>${answer}`)).toBe(false);
    expect(stillThinking(answer)).toBe(false);
    expect(withoutThinking('<think>Let me see { the')).toBe('');
    expect(() => parseModelReply('<think>only thoughts {a: 1}</think>  ')).toThrow(
      'Invalid response: response is empty or not a string',
    );
  });

  test('<thinking> tags, any case, are read the same way', () => {
    expect(parseModelReply(`<Thinking>hm {}</Thinking>${answer}`).storySegment).toBe(
      'The gate opens.',
    );
  });
});

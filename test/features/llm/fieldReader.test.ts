/**
 * The streamed narrative read a piece at a time (src/features/llm/partialField.ts): a reader
 * fed the growing reply in chunks of any size shows, at every point, what a fresh read of the
 * same text shows, never more than the finished reply's field, and in the end exactly what the
 * finished reply parses to.
 */
import { parseModelReply } from '../../../src/engine/replyRepair';
import { seededRng } from '../../../src/engine/random';
import { fieldReader, partialField } from '../../../src/features/llm';

const segment = (value: string, before = '', after = ', "options": [{"text": "Run"}]}') =>
  `${before}{"storySegment": ${JSON.stringify(value)}${after}`;

const REPLIES: Record<string, string> = {
  plain: segment('You step into the crypt. Dust rises, and something stirs below.'),
  'options first': `{"options": [{"text": "a \\"quoted\\" {brace}", "risk": "low"}], "storySegment": "After the options."}`,
  'escapes and line breaks': segment(
    'Line one.\nLine two,\r\nthen \ttabbed, \\ and \u00e9 \ud83d\ude00.',
  ),
  Hangul: segment('성문이 열리고, 안개 속에서 누군가 당신의 이름을 부릅니다.'),
  'a think block first': segment(
    'The tide turns.',
    '<think>Maybe {"storySegment": "no"}?</think>\n',
  ),
  'a closing tag only': segment('The bell rings.', 'I will write {a story} now.</think>'),
  'a code fence and prose': segment('Fenced.', 'Here you go:\n```json\n', '}\n```\nEnjoy!'),
  'a bare key first': `{이야기: "밤이 깊었다", storySegment: "성문이 열렸다", options: []}`,
};

describe('a reader fed the reply a piece at a time', () => {
  test.each(Object.entries(REPLIES))('%s', (_name, reply) => {
    const final = String(parseModelReply(reply).storySegment);
    const random = seededRng(reply.length);
    for (let round = 0; round < 20; round += 1) {
      const reader = fieldReader('storySegment');
      let shown = '';
      for (let end = 0; end < reply.length;) {
        end = Math.min(reply.length, end + 1 + Math.floor(random() * 12));
        const prefix = reply.slice(0, end);
        shown = reader.read(prefix);
        expect({ end, shown }).toEqual({ end, shown: partialField(prefix, 'storySegment') });
        expect(final.startsWith(shown)).toBe(true);
      }
      expect(shown).toBe(final);
    }
  });

  test('a field that is not a string, or not there, reads as nothing', () => {
    expect(partialField('{"storySegment": 42, "options": []}', 'storySegment')).toBe('');
    expect(partialField('{"options": [{"storySegment": "nested"}]}', 'storySegment')).toBe('');
  });

  test('a reply that starts again from nothing is read again from its start', () => {
    const reader = fieldReader('storySegment');
    expect(reader.read('{"storySegment": "First try')).toBe('First try');
    expect(reader.read('{"storySegment": "Sec')).toBe('Sec');
  });
});

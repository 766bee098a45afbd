import fc from 'fast-check';
import { eventReader } from '../../../src/features/llm/serverSentEvents';

/** The events' data read from `pieces`, fed one after another, then the end. */
function read(...pieces: string[]): string[] {
  const events: string[] = [];
  const reader = eventReader((data) => events.push(data));
  for (const piece of pieces) reader.feed(piece);
  reader.end();
  return events;
}

describe('server-sent event framing', () => {
  test('a blank line ends an event; data lines join with a newline', () => {
    expect(read('data: {"a":1}\n\ndata: first\ndata: second\n\n')).toEqual([
      '{"a":1}',
      'first\nsecond',
    ]);
  });

  test('lines end with LF, CRLF or CR', () => {
    expect(read('data: lf\n\ndata: crlf\r\n\r\ndata: cr\r\rdata: mixed\r\n\n')).toEqual([
      'lf',
      'crlf',
      'cr',
      'mixed',
    ]);
  });

  test('a CRLF split between two chunks is one line ending, not two', () => {
    // Two line endings would end the event after its first line.
    expect(read('data: one\r', '\ndata: two\r\n\r\n')).toEqual(['one\ntwo']);
    expect(read('data: one\r', '', '\ndata: two\r\n\r\n')).toEqual(['one\ntwo']);
  });

  test('comments and the fields a completion does not read are skipped', () => {
    const stream = [
      ': OPENROUTER PROCESSING',
      '',
      'event: message',
      'id: 7',
      'retry: 1000',
      'data: {"x":true}',
      ':keep-alive',
      'unknown: field',
      '',
      '',
    ].join('\n');
    expect(read(stream)).toEqual(['{"x":true}']);
  });

  test('one space after the colon is dropped, and only one; a field without a colon has no value', () => {
    expect(read('data:tight\n\ndata:  two spaces\n\ndata\ndata: after\n\n')).toEqual([
      'tight',
      ' two spaces',
      '\nafter',
    ]);
  });

  test('an event without data is none', () => {
    expect(read('event: ping\n\n\n\nid: 3\n\n')).toEqual([]);
  });

  test('the end of the stream ends its last line and its last event', () => {
    expect(read('data: [DONE]')).toEqual(['[DONE]']);
    expect(read('data: last\n')).toEqual(['last']);
    expect(read('data: ended\n\n')).toEqual(['ended']);
  });

  test('a stream cut into any pieces reads as the whole stream does', () => {
    const line = fc.oneof(
      fc.constantFrom('', ': ping', 'event: x', 'id: 1'),
      fc
        .string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', '한'), maxLength: 8 })
        .map((text) => `data: ${text}`),
    );
    const ending = fc.constantFrom('\n', '\r\n', '\r');
    const stream = fc
      .array(fc.tuple(line, ending), { maxLength: 12 })
      .map((lines) => lines.map(([text, end]) => text + end).join(''));
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        // Repeated cuts make empty pieces, as a decoder gives before a split character's end.
        const points = cuts.map((cut) => cut % (text.length + 1)).sort((a, b) => a - b);
        const pieces = [0, ...points].map((from, index) => text.slice(from, points[index]));
        expect(read(...pieces)).toEqual(read(text));
      }),
    );
  });
});

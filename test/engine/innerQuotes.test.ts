import { mendInnerQuotes } from '../../src/engine/innerQuotes';

const escaped = (text: string) => mendInnerQuotes(text, 'escape');

describe('mendInnerQuotes: which quotes end a string', () => {
  it.each([
    ['before a colon, comma, brace or bracket', '{"a": "x", "b": ["y"]}'],
    ['before the next key on its own line (a comma forgotten)', '{"a": "x"\n b: 2}'],
    ['before the next string (a comma forgotten)', '{"a": "x" "b": 2}'],
    ['before a comment', '{"a": "x" // note\n}'],
    ['before a remark and then a comma', '{"risk": "high" (very risky), "text": "Leap"}'],
    ['before a number or literal item', '["x", 12, true, null, -1.5e3]'],
    ['at the end of a cut-off reply', '{"a": "x"'],
  ])('%s', (_case, text) => {
    expect(escaped(text)).toBe(text);
  });

  it.each([
    [
      'dialogue in the middle',
      '{"a": "She said "No", then left."}',
      '"She said \\"No\\", then left."',
    ],
    ['dialogue ending the value', '{"a": "He roared "Charge!""}', '"He roared \\"Charge!\\""'],
    [
      'a quote before a remark in the text',
      '{"a": "He said "no" (quietly)."}',
      '"He said \\"no\\" (quietly)."',
    ],
    [
      'a number after a comma that is not an item',
      '{"a": "Stop", 5 guards said."}',
      '"Stop\\", 5 guards said."',
    ],
    [
      'two quoted phrases side by side',
      '{"a": "She said "Stop" "Go now" and ran."}',
      '"She said \\"Stop\\" \\"Go now\\" and ran."',
    ],
    ['a quoted word', '{"a": "the "end" of it", "b": 1}', '"the \\"end\\" of it"'],
  ])('escapes %s', (_case, text, value) => {
    expect(escaped(text)).toContain(value);
    expect(() => JSON.parse(escaped(text))).not.toThrow();
  });

  it('reads a comma and one word before a colon as the next key: the text cannot say otherwise', () => {
    expect(escaped('{"a": "said "Halt", Captain: now"}')).toBe(
      '{"a": "said \\"Halt", Captain: now"}',
    );
  });

  it('leaves escaped quotes and single-quoted strings alone', () => {
    expect(escaped('{"a": "say \\"hi\\""}')).toBe('{"a": "say \\"hi\\""}');
    expect(escaped(`{'a': 'He said "hi"'}`)).toBe(`{'a': 'He said "hi"'}`);
  });

  it('takes smart quotes around a string as JSON’s own, and keeps them inside one', () => {
    expect(escaped('{“a”: “He said "hi" now”}')).toBe('{"a": "He said \\"hi\\" now"}');
    expect(escaped('{"a": "a “quoted” word"}')).toBe('{"a": "a “quoted” word"}');
  });

  it('drops inner quotes, plain and smart, for the lenient pass', () => {
    expect(mendInnerQuotes('{"a": "She said "No" and “left”."}', 'drop')).toBe(
      '{"a": "She said No and left."}',
    );
  });
});

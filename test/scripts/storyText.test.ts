import { seededRng } from '../../src/engine/random';
import { LANGUAGES } from '../../src/engine/types';
import { storyText, wordCount, type TextKind } from '../../scripts/bench/storyText';

describe.each(LANGUAGES)('storyText in %s', (language) => {
  const kinds: TextKind[] = ['scene', 'summary', 'option', 'bio'];

  it.each(kinds)('writes %s text within the words asked for, naming the hero', (kind) => {
    const rng = seededRng(1);
    for (let i = 0; i < 50; i += 1) {
      const text = storyText(kind, { language, name: 'Aria', minWords: 10, maxWords: 40 }, rng);
      expect(wordCount(text)).toBeGreaterThanOrEqual(10);
      expect(wordCount(text)).toBeLessThanOrEqual(40);
      expect(text).not.toContain('{name}');
    }
  });

  it('is the same text for the same seed', () => {
    const write = () =>
      storyText('scene', { language, name: 'Aria', minWords: 120, maxWords: 180 }, seededRng(9));
    expect(write()).toBe(write());
  });

  it('says so when no text of that length can be made', () => {
    expect(() =>
      storyText('option', { language, name: 'Aria', minWords: 5, maxWords: 6 }, seededRng(1)),
    ).toThrow(/No option text of 5-6 words/);
  });
});

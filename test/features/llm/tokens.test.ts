import { countTokens } from 'gpt-tokenizer';
import { storyText } from '../../../scripts/bench/storyText';
import { seededRng } from '../../../src/engine/random';
import { estimatePromptTokens, estimateTokens } from '../../../src/features/llm/tokens';

/**
 * The estimate that keeps requests inside a free tier must never count fewer tokens than the
 * provider does (o200k, gpt-oss's tokenizer), and should not count wildly more either: every
 * token over is context the model is not shown. (It is an estimate for prose and the game's
 * prompts, which test/features/llm/prompts.test.ts checks too: a run of punctuation or a
 * rare Hangul syllable alone can take a token a byte.)
 */
describe('estimateTokens against o200k (gpt-tokenizer)', () => {
  it.each(['en', 'kr'] as const)(
    '%s story prose: at or over the real count, by under 50%%',
    (language) => {
      const rng = seededRng(language === 'en' ? 11 : 12);
      const name = language === 'en' ? 'Aria Vale' : '서윤';
      for (let i = 0; i < 40; i += 1) {
        const text = storyText('scene', { language, name, minWords: 40, maxWords: 200 }, rng);
        const real = countTokens(text);
        expect(estimateTokens(text)).toBeGreaterThanOrEqual(real);
        expect(estimateTokens(text)).toBeLessThan(real * 1.5);
      }
    },
  );

  it('counts a chat request as providers do: each message with its framing', () => {
    expect(estimatePromptTokens([])).toBe(3);
    expect(estimatePromptTokens(['abcdefg', ''])).toBe(2 + 4 + 0 + 4 + 3);
  });
});

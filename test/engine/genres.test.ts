import { WORDS_EN } from '../../src/engine/data/words.en';
import { WORDS_KR } from '../../src/engine/data/words.kr';
import { GENRE_MAX_CHARS, shortenGenre } from '../../src/engine/text';
import { LANGUAGES, type Language } from '../../src/engine/types';

const PRESET_GENRES: Record<Language, readonly string[]> = {
  en: WORDS_EN.genres,
  kr: WORDS_KR.genres,
};

const codePoints = (text: string): number => Array.from(text).length;

describe('preset genres', () => {
  it.each(LANGUAGES)('has about 66 genres in %s', (language) => {
    expect(PRESET_GENRES[language].length).toBeGreaterThanOrEqual(60);
    expect(PRESET_GENRES[language].length).toBeLessThanOrEqual(72);
  });

  it.each(LANGUAGES)('has no duplicates and no blank or padded genres in %s', (language) => {
    const genres = PRESET_GENRES[language];
    expect(new Set(genres).size).toBe(genres.length);
    for (const genre of genres) {
      expect(genre).toBe(genre.trim());
      expect(genre).not.toBe('');
    }
  });

  it.each(LANGUAGES)('has genres long enough for the leaderboard to shorten in %s', (language) => {
    const long = PRESET_GENRES[language].filter((genre) => codePoints(genre) > GENRE_MAX_CHARS);
    expect(long.length).toBeGreaterThan(0);
    for (const genre of long) expect(shortenGenre(genre)).not.toBe(genre);
  });

  it('includes the familiar genres in both languages', () => {
    expect(PRESET_GENRES.en).toEqual(
      expect.arrayContaining(['High Fantasy', 'Cyberpunk Noir', 'Cosmic Horror', 'Wuxia']),
    );
    expect(PRESET_GENRES.kr).toEqual(
      expect.arrayContaining(['하이 판타지', '사이버펑크 누아르', '무협', '조선 궁중 미스터리']),
    );
  });

  it('writes every Korean genre with Hangul', () => {
    for (const genre of PRESET_GENRES.kr) expect(genre).toMatch(/[\uAC00-\uD7A3]/);
  });
});

import {
  ADDRESS_HEAD_CHARS,
  ADDRESS_TAIL_CHARS,
  ELLIPSIS,
  GENRE_HEAD_CHARS,
  GENRE_MAX_CHARS,
  GENRE_TAIL_CHARS,
  PREVIEW_WORDS,
  isReadable,
  shortenAddress,
  shortenGenre,
  storyPreview,
  withoutHiddenCharacters,
} from '../../src/engine/text';

/** 'w1 w2 ... wN' */
const words = (count: number): string =>
  Array.from({ length: count }, (_, i) => `w${i + 1}`).join(' ');

describe('the spec numbers', () => {
  it('matches SPEC.md section 9', () => {
    expect(PREVIEW_WORDS).toBe(50);
    expect([ADDRESS_HEAD_CHARS, ADDRESS_TAIL_CHARS]).toEqual([6, 4]);
    expect([GENRE_MAX_CHARS, GENRE_HEAD_CHARS, GENRE_TAIL_CHARS]).toEqual([12, 6, 3]);
    expect(ELLIPSIS).toBe('...');
  });
});

describe('storyPreview', () => {
  it('keeps all 50 words of a 50-word paragraph and still adds the ellipsis', () => {
    expect(storyPreview(words(50))).toBe(`${words(50)}...`);
  });

  it('cuts a 51-word paragraph after the 50th word', () => {
    expect(storyPreview(words(51))).toBe(`${words(50)}...`);
  });

  it('adds the ellipsis to a short paragraph', () => {
    expect(storyPreview('The door creaks open.')).toBe('The door creaks open....');
  });

  it('collapses any whitespace between words', () => {
    expect(storyPreview('  The\tdoor\n\ncreaks   open.  ')).toBe('The door creaks open....');
  });

  it('gives an empty preview for an empty or blank paragraph', () => {
    expect(storyPreview('')).toBe('');
    expect(storyPreview(' \n\t ')).toBe('');
  });

  it('counts Korean words by spaces', () => {
    expect(storyPreview('문이 삐걱 열렸다.', 2)).toBe('문이 삐걱...');
  });

  it('takes another word limit', () => {
    expect(storyPreview(words(5), 3)).toBe('w1 w2 w3...');
  });
});

describe('shortenAddress', () => {
  it('shows the first 6 and last 4 characters of a wallet address', () => {
    expect(shortenAddress('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234...5678');
  });

  it('keeps an address of 10 characters whole', () => {
    expect(shortenAddress('0x12345678')).toBe('0x12345678');
  });

  it('shortens an address of 11 characters', () => {
    expect(shortenAddress('0x123456789')).toBe('0x1234...6789');
  });

  it('keeps short and empty strings whole', () => {
    expect(shortenAddress('0xab')).toBe('0xab');
    expect(shortenAddress('')).toBe('');
  });
});

describe('shortenGenre', () => {
  it('keeps a genre of 12 characters whole', () => {
    expect(shortenGenre('High Fantasy')).toBe('High Fantasy');
  });

  it('shortens a genre of 13 characters to the first 6, an ellipsis and the last 3', () => {
    expect(shortenGenre('Cosmic Horror')).toBe('Cosmic...ror');
  });

  it('shortens a long genre', () => {
    expect(shortenGenre('Post-Apocalyptic Survival')).toBe('Post-A...val');
  });

  it('counts Hangul syllables as single characters', () => {
    // 12 syllables and spaces: kept whole; 14: shortened.
    expect(shortenGenre('포스트 아포칼립스 생존')).toBe('포스트 아포칼립스 생존');
    expect(shortenGenre('포스트 아포칼립스 서바이벌')).toBe('포스트 아포...바이벌');
  });

  it('never splits an emoji in half', () => {
    const genre = '🐉🐉🐉 Dragon Saga 🐉';
    expect(genre.length).toBeGreaterThan(Array.from(genre).length);
    expect(shortenGenre(genre)).toBe('🐉🐉🐉 Dr...a 🐉');
    expect(shortenGenre('🐉'.repeat(12))).toBe('🐉'.repeat(12));
  });

  it('keeps short and empty genres whole', () => {
    expect(shortenGenre('무협')).toBe('무협');
    expect(shortenGenre('')).toBe('');
  });
});

describe('withoutHiddenCharacters', () => {
  it.each([
    [
      'a right-to-left override that would reverse the rest',
      'pay \u202Elaog\u202C now',
      'pay laog now',
    ],
    ['isolates and embeddings', '\u2066a\u2069 \u202Ab\u202C \u2067c\u2069', 'a b c'],
    ['zero-width spaces, word joiners and byte-order marks', 'st\u200Bo\u2060p\uFEFF', 'stop'],
    ['soft hyphens', 'gate\u00ADkeeper', 'gatekeeper'],
    ['tag characters that can carry hidden text', 'go\u{E0068}\u{E0069}', 'go'],
    ['a Hangul filler', '\u3164문', '문'],
    ['control characters', 'a\u0000b\u001Bc', 'abc'],
    ['lone surrogate halves, which would join into a hidden tag', 'a\uDB40\u200B\uDC41b', 'ab'],
  ])('removes %s', (_case, text, shown) => {
    expect(withoutHiddenCharacters(text)).toBe(shown);
  });

  it('keeps whitespace, joiners and variation selectors that emoji and scripts need', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    for (const text of [
      'line\nbreak\ttab',
      family,
      '\u2764\uFE0F',
      '\u0645\u200C\u0627',
      '성벽을 오른다',
    ]) {
      expect(withoutHiddenCharacters(text)).toBe(text);
    }
  });
});

describe('isReadable', () => {
  it('needs a letter or digit that shows', () => {
    expect(isReadable('Run')).toBe(true);
    expect(isReadable('도망친다')).toBe(true);
    expect(isReadable('7')).toBe(true);
    for (const text of [
      '',
      '   ',
      '\u200B',
      '\u00AD',
      '\u202E',
      '\u3164',
      '...',
      '\u0301',
      '\u2800',
    ]) {
      expect(isReadable(text)).toBe(false);
    }
  });
});

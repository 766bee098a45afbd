import fc from 'fast-check';
import { WORDS_EN } from '../../src/engine/data/words.en';
import { WORDS_KR } from '../../src/engine/data/words.kr';
import { FANTASY_NAME_CHANCE, fantasyName, randomName } from '../../src/engine/names';
import { scriptedRng } from '../../src/engine/random';
import { LANGUAGES, type Language, type Rng } from '../../src/engine/types';

const NAMES = { en: WORDS_EN.names, kr: WORDS_KR.names } as const satisfies Record<
  Language,
  unknown
>;
const FIRST_NAMES = { en: NAMES.en.first, kr: NAMES.kr.first };
const LAST_NAMES = { en: NAMES.en.last, kr: NAMES.kr.last };

/** A random source that cycles through a non-empty list of values. */
function cycling(values: readonly number[]): Rng {
  let next = 0;
  return () => {
    const value = values[next % values.length] ?? 0;
    next += 1;
    return value;
  };
}

const HANGUL_SYLLABLE = /^[\uAC00-\uD7A3]+$/;

describe('name lists', () => {
  it.each(LANGUAGES)('has about 100 first and 100 last names in %s', (language) => {
    expect(FIRST_NAMES[language].length).toBeGreaterThanOrEqual(90);
    expect(FIRST_NAMES[language].length).toBeLessThanOrEqual(110);
    expect(LAST_NAMES[language].length).toBeGreaterThanOrEqual(90);
    expect(LAST_NAMES[language].length).toBeLessThanOrEqual(110);
  });

  it.each(LANGUAGES)('has no duplicates and no blank or padded names in %s', (language) => {
    for (const list of [FIRST_NAMES[language], LAST_NAMES[language]]) {
      expect(new Set(list).size).toBe(list.length);
      for (const name of list) {
        expect(name).toBe(name.trim());
        expect(name).not.toBe('');
      }
    }
  });

  it('uses two-syllable Hangul given names in Korean', () => {
    for (const name of FIRST_NAMES.kr) {
      expect(name).toMatch(HANGUL_SYLLABLE);
      expect(name).toHaveLength(2);
    }
  });

  it('includes the two-syllable Korean family names alongside the common ones', () => {
    expect(LAST_NAMES.kr).toEqual(
      expect.arrayContaining(['김', '이', '박', '남궁', '제갈', '선우', '독고']),
    );
    for (const name of LAST_NAMES.kr) {
      expect(name).toMatch(HANGUL_SYLLABLE);
      expect(name.length).toBeLessThanOrEqual(2);
    }
  });
});

describe('randomName', () => {
  it('picks first and last from the lists when both rolls are at or above 10%', () => {
    expect(randomName(NAMES.en, 'en', scriptedRng([0.5, 0, 0.5, 0]))).toEqual({
      firstName: FIRST_NAMES.en[0],
      lastName: LAST_NAMES.en[0],
    });
    expect(randomName(NAMES.kr, 'kr', scriptedRng([0.99, 0.999999, 0.99, 0.999999]))).toEqual({
      firstName: FIRST_NAMES.kr[FIRST_NAMES.kr.length - 1],
      lastName: LAST_NAMES.kr[LAST_NAMES.kr.length - 1],
    });
  });

  it('treats a roll of exactly 0.1 as a list pick', () => {
    expect(FANTASY_NAME_CHANCE).toBe(0.1);
    expect(randomName(NAMES.en, 'en', scriptedRng([0.1, 0, 0.1, 0]))).toEqual({
      firstName: 'Aria',
      lastName: 'Blackwood',
    });
  });

  it('invents the first name when its roll is below 10%', () => {
    // roll 0.05 → fantasy; 0.9 → two syllables; 0, 0 → 'Kael' + 'thor'.
    expect(randomName(NAMES.en, 'en', scriptedRng([0.05, 0.9, 0, 0, 0.5, 0]))).toEqual({
      firstName: 'Kaelthor',
      lastName: 'Blackwood',
    });
  });

  it('invents the last name independently of the first', () => {
    expect(randomName(NAMES.en, 'en', scriptedRng([0.5, 0, 0.0999, 0.9, 0, 0]))).toEqual({
      firstName: 'Aria',
      lastName: 'Kaelthor',
    });
  });

  it('invents both names in Korean when both rolls are below 10%', () => {
    expect(randomName(NAMES.kr, 'kr', scriptedRng([0, 0.9, 0, 0.03, 0.09, 0.9, 0.03, 0]))).toEqual({
      firstName: '아린',
      lastName: '린아',
    });
  });
});

describe('fantasyName', () => {
  it('joins an opening and an ending into a capitalised English name', () => {
    expect(fantasyName('en', scriptedRng([0.9, 0, 0]))).toBe('Kaelthor');
  });

  it('adds a linking syllable for a three-syllable English name', () => {
    expect(fantasyName('en', scriptedRng([0.1, 0, 0, 0]))).toBe('Kaelathor');
  });

  it('builds two or three Hangul syllables in Korean', () => {
    expect(fantasyName('kr', scriptedRng([0.9, 0, 0.03]))).toBe('아린');
    expect(fantasyName('kr', scriptedRng([0.1, 0, 0.03, 0]))).toBe('아린아');
  });

  it('never doubles a Korean syllable', () => {
    expect(fantasyName('kr', scriptedRng([0.9, 0, 0]))).toBe('아린');
  });

  it('always gives a non-empty trimmed name of the right script for any random source', () => {
    const unitValues = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
      minLength: 1,
    });
    fc.assert(
      fc.property(unitValues, (values) => {
        const english = fantasyName('en', cycling(values));
        expect(english).toMatch(/^[A-Z][a-z]+$/);
        const korean = fantasyName('kr', cycling(values));
        expect(korean).toMatch(HANGUL_SYLLABLE);
        expect(korean.length).toBeGreaterThanOrEqual(2);
        expect(korean.length).toBeLessThanOrEqual(3);
        expect(korean).not.toMatch(/(.)\1/);
      }),
    );
  });
});

describe('randomName for any random source', () => {
  it('always gives non-empty trimmed first and last names', () => {
    const unitValues = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
      minLength: 1,
    });
    fc.assert(
      fc.property(fc.constantFrom(...LANGUAGES), unitValues, (language, values) => {
        const { firstName, lastName } = randomName(NAMES[language], language, cycling(values));
        for (const name of [firstName, lastName]) {
          expect(name).not.toBe('');
          expect(name).toBe(name.trim());
        }
      }),
    );
  });
});

describe('randomName before a language’s lists are here', () => {
  it('invents both parts from an empty pool, in the language’s own script', () => {
    const empty = { first: [], last: [] };
    const korean = randomName(empty, 'kr', cycling([0.9, 0, 0.5, 0.2]));
    expect(korean.firstName).toMatch(HANGUL_SYLLABLE);
    expect(korean.lastName).toMatch(HANGUL_SYLLABLE);
    const english = randomName(empty, 'en', cycling([0.9, 0.3]));
    expect(english.firstName).toMatch(/^[A-Z][a-z]+$/);
    expect(english.lastName).toMatch(/^[A-Z][a-z]+$/);
  });
});

import fc from 'fast-check';

import {
  normalizeOptions,
  stripParentheticals,
  toAlignment,
  toRisk,
} from '../../src/engine/options';
import type { StoryOption } from '../../src/engine/types';

describe('stripParentheticals', () => {
  it.each([
    ['Climb the wall (high risk, moral)', 'Climb the wall'],
    ['Climb (quietly) the wall', 'Climb the wall'],
    ['(Risky) Climb the wall', 'Climb the wall'],
    ['Climb the wall (high (very) risk) now (moral)', 'Climb the wall now'],
    ['Climb the wall (risky).', 'Climb the wall.'],
    ['Run (fast) , then hide (well) !', 'Run, then hide!'],
    ['성벽을 오른다 （위험도: 높음）', '성벽을 오른다'],
    ['성벽을 오른다 (위험: 상）', '성벽을 오른다'],
    ['No remark here', 'No remark here'],
    ['  padded  ', 'padded'],
    ['(only a remark)', ''],
    ['An unclosed (remark', 'An unclosed (remark'],
  ])('%p → %p', (text, expected) => {
    expect(stripParentheticals(text)).toBe(expected);
  });
});

describe('toRisk', () => {
  it.each([
    ['low', 'low'],
    ['LOW', 'low'],
    ['Low risk', 'low'],
    ['low-risk', 'low'],
    ['낮음', 'low'],
    ['낮은', 'low'],
    ['낮은 위험', 'low'],
    ['저위험', 'low'],
    ['하', 'low'],
    ['medium', 'medium'],
    ['Moderate', 'medium'],
    ['mid', 'medium'],
    ['Medium risk', 'medium'],
    ['중간', 'medium'],
    ['보통', 'medium'],
    ['중위험', 'medium'],
    ['중', 'medium'],
    ['high', 'high'],
    ['High risk', 'high'],
    ['HIGH', 'high'],
    ['높음', 'high'],
    ['높은', 'high'],
    ['고위험', 'high'],
    ['상', 'high'],
    ['위험도: 높음', 'high'],
    ['위험도: 낮음', 'low'],
  ] as const)('%p → %p', (word, expected) => {
    expect(toRisk(word)).toBe(expected);
  });

  it.each(['', 'extreme', 'below', 'slow', '상당한', undefined, null, 3, { risk: 'high' }])(
    'defaults %p to medium',
    (word) => {
      expect(toRisk(word)).toBe('medium');
    },
  );
});

describe('toAlignment', () => {
  it.each([
    ['moral', 'moral'],
    ['Moral', 'moral'],
    ['good', 'moral'],
    ['Morally good', 'moral'],
    ['도덕적', 'moral'],
    ['선한', 'moral'],
    ['선', 'moral'],
    ['immoral', 'immoral'],
    ['IMMORAL', 'immoral'],
    ['evil', 'immoral'],
    ['비도덕적', 'immoral'],
    ['부도덕', 'immoral'],
    ['부도덕한', 'immoral'],
    ['비윤리적', 'immoral'],
    ['악한', 'immoral'],
    ['악', 'immoral'],
    ['neutral', 'neutral'],
    ['Neutral', 'neutral'],
    ['중립', 'neutral'],
    ['중립적', 'neutral'],
  ] as const)('%p → %p', (word, expected) => {
    expect(toAlignment(word)).toBe(expected);
  });

  it.each(['', 'amoral', 'chaotic', '선택', undefined, null, 7, ['moral']])(
    'defaults %p to neutral',
    (word) => {
      expect(toAlignment(word)).toBe('neutral');
    },
  );
});

describe('normalizeOptions', () => {
  const option = (text: string, risk: string, alignment?: string, trait?: string) => ({
    text,
    risk,
    ...(alignment === undefined ? {} : { alignment }),
    ...(trait === undefined ? {} : { traitAlignment: trait }),
  });

  it('maps words and keeps the order', () => {
    expect(
      normalizeOptions([
        option('Sneak past (stealthy)', 'Low', 'neutral', 'cunning'),
        option('Charge the guards', '높음', 'immoral', 'brave'),
      ]),
    ).toEqual<StoryOption[]>([
      { text: 'Sneak past', risk: 'low', alignment: 'neutral', traitAlignment: 'cunning' },
      { text: 'Charge the guards', risk: 'high', alignment: 'immoral', traitAlignment: 'brave' },
    ]);
  });

  it('defaults alignment to neutral and traitAlignment to empty', () => {
    expect(normalizeOptions([option('Wait', 'low')])).toEqual([
      { text: 'Wait', risk: 'low', alignment: 'neutral', traitAlignment: '' },
    ]);
  });

  it('accepts key variants, in any case', () => {
    expect(
      normalizeOptions([
        { description: 'A', riskLevel: 'low', moralAlignment: 'good', trait: 'kind' },
        { option: 'B', RiskLevel: 'high', 도덕성: '악한', 특성: '용감함' },
        { content: 'C', 위험도: '중간', Alignment: 'neutral' },
        { 텍스트: 'D', risk: 'low' },
        { 선택지: 'E', risk: 'high' },
      ]),
    ).toEqual<StoryOption[]>([
      { text: 'A', risk: 'low', alignment: 'moral', traitAlignment: 'kind' },
      { text: 'B', risk: 'high', alignment: 'immoral', traitAlignment: '용감함' },
      { text: 'C', risk: 'medium', alignment: 'neutral', traitAlignment: '' },
      { text: 'D', risk: 'low', alignment: 'neutral', traitAlignment: '' },
      { text: 'E', risk: 'high', alignment: 'neutral', traitAlignment: '' },
    ]);
  });

  it('reads options keyed by number or name', () => {
    const expected = [
      { text: 'Run', risk: 'high', alignment: 'moral', traitAlignment: '' },
      { text: 'Hide', risk: 'low', alignment: 'immoral', traitAlignment: '' },
    ];
    expect(
      normalizeOptions({ '1': option('Run', 'high', 'moral'), '2': option('Hide', 'low', 'evil') }),
    ).toEqual(expected);
    expect(
      normalizeOptions({
        option1: option('Run', 'high', 'moral'),
        option2: option('Hide', 'low', 'evil'),
      }),
    ).toEqual(expected);
  });

  it('reads a single bare option', () => {
    expect(normalizeOptions(option('Run', 'high', 'moral'))).toEqual([
      { text: 'Run', risk: 'high', alignment: 'moral', traitAlignment: '' },
    ]);
  });

  it('drops entries without text or without a risk string', () => {
    const kept = normalizeOptions([
      option('Keep me', 'low', 'moral'),
      { risk: 'high' },
      { text: '', risk: 'high' },
      { text: '   ', risk: 'high' },
      { text: '(only a remark)', risk: 'high' },
      { text: 42, risk: 'high' },
      { text: 'No risk' },
      { text: 'Numeric risk', risk: 3 },
      { text: 'Null risk', risk: null },
      { text: 'Object risk', risk: { level: 'high' } },
      'Just a string',
      null,
      7,
      ['text', 'risk'],
      option('Keep me too', 'high', 'immoral'),
    ]);
    expect(kept.map(({ text }) => text)).toEqual(['Keep me', 'Keep me too']);
  });

  it('drops options with nothing to read: blank buttons are never shown', () => {
    const kept = normalizeOptions([
      { text: '\u200B\u200B', risk: 'high' },
      { text: '\u00AD', risk: 'high' },
      { text: '\u202E \u2066\u2069', risk: 'high' },
      { text: '\u3164\uFEFF\u2060', risk: 'high' },
      { text: '\u0301\u200D', risk: 'high' },
      { text: '\u2800 . ... !', risk: 'high' },
      { text: '\u200B(remark)\u200B', risk: 'high' },
      option('Open the gate', 'low', 'moral'),
    ]);
    expect(kept.map(({ text }) => text)).toEqual(['Open the gate']);
  });

  it('shows option text and trait without characters that hide or reverse text', () => {
    const [shown] = normalizeOptions([
      { text: 'Pay\u200B the \u202Eloot\u202C toll', risk: 'low', trait: '\u2067brave\u2069' },
    ]);
    expect(shown).toMatchObject({ text: 'Pay the loot toll', traitAlignment: 'brave' });
    // A trait with nothing to read gets no tag at all.
    for (const trait of ['\u200B', '\uFE0F\n\u200C', '...']) {
      expect(normalizeOptions([{ text: 'Go', risk: 'low', trait }])[0]?.traitAlignment).toBe('');
    }
  });

  it('returns nothing for values that hold no options', () => {
    for (const raw of [undefined, null, 'options', 3, true, [], {}, { a: 1 }]) {
      expect(normalizeOptions(raw)).toEqual([]);
    }
  });

  describe('risk spread (SPEC.md section 5)', () => {
    const risks = (...levels: string[]) =>
      normalizeOptions(
        levels.map((risk, i) => option(`Option ${i}`, risk, i % 2 ? 'moral' : 'evil')),
      ).map(({ risk }) => risk);

    it('reassigns low, medium, high by position when three share a risk', () => {
      expect(risks('high', 'high', 'high')).toEqual(['low', 'medium', 'high']);
      expect(risks('medium', 'medium', 'medium', 'medium')).toEqual([
        'low',
        'medium',
        'high',
        'low',
      ]);
      expect(risks('low', 'high', 'low', 'low')).toEqual(['low', 'medium', 'high', 'low']);
      expect(risks('High risk', 'high', '높음')).toEqual(['low', 'medium', 'high']);
    });

    it('leaves risks alone when no three share one', () => {
      expect(risks('high', 'high')).toEqual(['high', 'high']);
      expect(risks('low', 'low', 'high')).toEqual(['low', 'low', 'high']);
      expect(risks('high', 'high', 'low', 'low')).toEqual(['high', 'high', 'low', 'low']);
      expect(risks('low', 'medium', 'high')).toEqual(['low', 'medium', 'high']);
    });

    it('counts only the options that are kept', () => {
      const kept = normalizeOptions([
        option('A', 'high', 'moral'),
        { text: 'dropped', risk: 1 },
        option('B', 'high', 'evil'),
      ]);
      expect(kept.map(({ risk }) => risk)).toEqual(['high', 'high']);
    });
  });

  describe('alignment spread (SPEC.md section 5)', () => {
    const alignments = (...words: (string | undefined)[]) =>
      normalizeOptions(words.map((alignment, i) => option(`Option ${i}`, `${i}`, alignment))).map(
        ({ alignment }) => alignment,
      );

    it('reassigns moral, immoral, neutral by position when all share one', () => {
      expect(alignments('moral', 'moral')).toEqual(['moral', 'immoral']);
      expect(alignments('neutral', 'neutral', 'neutral')).toEqual(['moral', 'immoral', 'neutral']);
      expect(alignments(undefined, undefined, undefined, undefined)).toEqual([
        'moral',
        'immoral',
        'neutral',
        'moral',
      ]);
      expect(alignments('evil', '악한', 'immoral')).toEqual(['moral', 'immoral', 'neutral']);
    });

    it('leaves alignments alone when they differ or there is only one option', () => {
      expect(alignments('moral')).toEqual(['moral']);
      expect(alignments('neutral')).toEqual(['neutral']);
      expect(alignments('moral', 'moral', 'immoral')).toEqual(['moral', 'moral', 'immoral']);
      expect(alignments('neutral', undefined, 'good')).toEqual(['neutral', 'neutral', 'moral']);
    });
  });

  describe('properties', () => {
    const RISKS = ['low', 'medium', 'high'];
    const ALIGNMENTS = ['moral', 'immoral', 'neutral'];

    function expectValidOptions(options: unknown): void {
      expect(Array.isArray(options)).toBe(true);
      for (const candidate of options as unknown[]) {
        const { text, risk, alignment, traitAlignment, ...rest } = candidate as StoryOption;
        expect(typeof text).toBe('string');
        expect(text).not.toBe('');
        expect(text).toBe(stripParentheticals(text));
        expect(RISKS).toContain(risk);
        expect(ALIGNMENTS).toContain(alignment);
        expect(typeof traitAlignment).toBe('string');
        expect(rest).toEqual({});
      }
    }

    const loose = fc.oneof(fc.string(), fc.jsonValue(), fc.constant(undefined));
    const optionLike = fc.record(
      {
        text: loose,
        description: loose,
        risk: loose,
        riskLevel: loose,
        위험도: loose,
        alignment: loose,
        moralAlignment: loose,
        traitAlignment: loose,
        trait: loose,
      },
      { requiredKeys: [] },
    );
    const optionLists = fc.oneof(
      fc.array(optionLike),
      fc.dictionary(fc.string(), optionLike),
      optionLike,
    );

    it('never throws and returns only valid options for JSON values', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (raw) => expectValidOptions(normalizeOptions(raw))),
        { numRuns: 300 },
      );
    });

    it('never throws and returns only valid options for anything', () => {
      const anything = fc.anything({ withNullPrototype: true, withMap: true, withDate: true });
      fc.assert(
        fc.property(anything, (raw) => expectValidOptions(normalizeOptions(raw))),
        { numRuns: 300 },
      );
    });

    it('never throws and returns only valid options for option-like lists', () => {
      fc.assert(
        fc.property(optionLists, (raw) => expectValidOptions(normalizeOptions(raw))),
        { numRuns: 300 },
      );
    });

    it('never leaves three options on one risk, nor two or more on one alignment', () => {
      const wellFormed = fc.array(
        fc.record({
          text: fc.constantFrom('Run', 'Hide', 'Fight', 'Talk'),
          risk: fc.constantFrom('low', 'medium', 'high', '높음', 'whatever'),
          alignment: fc.constantFrom('moral', 'immoral', 'neutral', '악한', 'whatever'),
        }),
        { maxLength: 6 },
      );
      fc.assert(
        fc.property(wellFormed, (raw) => {
          const options = normalizeOptions(raw);
          expect(options).toHaveLength(raw.length);
          for (const level of RISKS) {
            const sharing = options.filter(({ risk }) => risk === level).length;
            // The cyclic spread leaves at most ceil(n / 3) per level, so three only from 7 on.
            expect(sharing).toBeLessThan(3);
          }
          if (options.length >= 2) {
            expect(new Set(options.map(({ alignment }) => alignment)).size).toBeGreaterThan(1);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});

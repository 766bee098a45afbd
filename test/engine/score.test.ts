import fc from 'fast-check';

import { endingScore, endingStyle, toEnglishEndingType } from '../../src/engine/score';
import type { EndingScoreInput } from '../../src/engine/score';
import { ENDING_TYPES, INITIAL_SCORE_BREAKDOWN } from '../../src/engine/types';

function ending(overrides: Partial<EndingScoreInput> = {}): EndingScoreInput {
  return {
    scoreBreakdown: { decisions: 30, consistency: 20, creativity: 10, morality: 25 },
    turnCount: 15,
    successRate: 50,
    endingType: 'Bittersweet Resolution',
    ...overrides,
  };
}

describe('endingScore', () => {
  it('adds decisions, consistency and creativity for the base, leaving morality out', () => {
    expect(endingScore(ending()).base).toBe(60);
  });

  it('gives up to 20 for speed, gone by turn 30, plus up to 15 for the success rate', () => {
    const bonus = (turnCount: number, successRate: number) =>
      endingScore(ending({ turnCount, successRate })).bonus;
    expect(bonus(0, 0)).toBe(20);
    expect(bonus(15, 0)).toBe(10);
    expect(bonus(30, 0)).toBe(0);
    expect(bonus(45, 0)).toBe(0);
    expect(bonus(30, 100)).toBe(15);
    expect(bonus(15, 50)).toBe(17.5);
  });

  it('rounds base plus bonus, then scales by the ending and rounds again', () => {
    // round(60 + 17.5) = 78; 78 * 1.5 = 117
    expect(endingScore(ending({ endingType: 'Heroic Victory' }))).toEqual({
      base: 60,
      bonus: 17.5,
      multiplier: 1.5,
      score: 117,
    });
  });

  it('scales by each ending type, and by 1.0 for any other', () => {
    const scoreFor = (endingType: string) => endingScore(ending({ endingType })).score;
    expect(scoreFor('Heroic Victory')).toBe(117); // 78 * 1.5
    expect(scoreFor('Pyrrhic Victory')).toBe(101); // 78 * 1.3 = 101.4
    expect(scoreFor('Antihero Triumph')).toBe(94); // 78 * 1.2 = 93.6
    expect(scoreFor('Bittersweet Resolution')).toBe(78);
    expect(scoreFor('Tragic Downfall')).toBe(62); // 78 * 0.8 = 62.4
    expect(scoreFor('The Long Night')).toBe(78);
    expect(scoreFor('')).toBe(78);
    expect(scoreFor('valueOf')).toBe(78);
    expect(scoreFor('constructor')).toBe(78);
  });

  it('matches ending types ignoring case and spacing, and in Korean', () => {
    const multiplierFor = (endingType: string) => endingScore(ending({ endingType })).multiplier;
    expect(multiplierFor('heroic victory')).toBe(1.5);
    expect(multiplierFor('  TRAGIC DOWNFALL ')).toBe(0.8);
    expect(multiplierFor('영웅적 승리')).toBe(1.5);
    expect(multiplierFor('상처뿐인 승리')).toBe(1.3);
    expect(multiplierFor('반영웅의 승리')).toBe(1.2);
    expect(multiplierFor('비극적 몰락')).toBe(0.8);
  });

  it('rounds exact halves up, as SQL numeric arithmetic does', () => {
    // Turn 24, 10% success: 4 + 1.5 = 5.5 exactly, which naive float arithmetic makes 5.4999.
    const fromZero = { scoreBreakdown: INITIAL_SCORE_BREAKDOWN };
    expect(endingScore(ending({ ...fromZero, turnCount: 24, successRate: 10 })).score).toBe(6);
    // Turn 30, 70% success: 10.5 exactly.
    expect(endingScore(ending({ ...fromZero, turnCount: 30, successRate: 70 })).score).toBe(11);
    // 5 * 1.3 = 6.5 rounds to 7.
    const five = { scoreBreakdown: { ...INITIAL_SCORE_BREAKDOWN, decisions: 5 } };
    const pyrrhic = ending({
      ...five,
      turnCount: 30,
      successRate: 0,
      endingType: 'Pyrrhic Victory',
    });
    expect(endingScore(pyrrhic).score).toBe(7);
  });

  it('is always a whole number', () => {
    const points = fc.double({ min: 0, max: 100, noNaN: true });
    const anyEnding = fc.record({
      scoreBreakdown: fc.record({
        decisions: points,
        consistency: points,
        creativity: points,
        morality: points,
      }),
      turnCount: fc.integer({ min: 0, max: 100 }),
      successRate: fc.integer({ min: 0, max: 100 }),
      endingType: fc.oneof(fc.constantFrom(...ENDING_TYPES, '씁쓸한 결말'), fc.string()),
    });
    fc.assert(
      fc.property(anyEnding, (input) => {
        expect(Number.isInteger(endingScore(input).score)).toBe(true);
      }),
    );
  });
});

describe('toEnglishEndingType', () => {
  it.each([
    ['영웅적 승리', 'Heroic Victory'],
    ['피로스의 승리', 'Pyrrhic Victory'],
    ['상처뿐인 승리', 'Pyrrhic Victory'],
    ['안티히어로의 승리', 'Antihero Triumph'],
    ['반영웅의 승리', 'Antihero Triumph'],
    ['비극적 몰락', 'Tragic Downfall'],
    ['씁쓸한 결말', 'Bittersweet Resolution'],
    ['달콤씁쓸한 결말', 'Bittersweet Resolution'],
    ['씁쓸한 해결', 'Bittersweet Resolution'],
  ])('maps %s to %s', (korean, english) => {
    expect(toEnglishEndingType(korean)).toBe(english);
  });

  it('trims the name first', () => {
    expect(toEnglishEndingType('  비극적 몰락\n')).toBe('Tragic Downfall');
  });

  it('gives the English names their usual spelling', () => {
    expect(toEnglishEndingType('Heroic Victory')).toBe('Heroic Victory');
    expect(toEnglishEndingType('pyrrhic victory')).toBe('Pyrrhic Victory');
  });

  it('returns any other name unchanged', () => {
    expect(toEnglishEndingType('The Long Night')).toBe('The Long Night');
    expect(toEnglishEndingType('고요한 새벽')).toBe('고요한 새벽');
  });
});

describe('endingStyle', () => {
  it('names the styling class for each ending type, in either language', () => {
    expect(endingStyle('Heroic Victory')).toBe('heroic');
    expect(endingStyle('피로스의 승리')).toBe('pyrrhic');
    expect(endingStyle('antihero triumph')).toBe('antihero');
    expect(endingStyle('비극적 몰락')).toBe('tragic');
    expect(endingStyle('Bittersweet Resolution')).toBe('bittersweet');
    expect(endingStyle('The Long Night')).toBe('other');
    expect(endingStyle('toString')).toBe('other');
  });
});

import fc from 'fast-check';

import { failureChance, outcomeOdds, rollOutcome } from '../../src/engine/outcome';
import type { OutcomeRollInput } from '../../src/engine/outcome';
import { scriptedRng, seededRng } from '../../src/engine/random';
import type { Outcome } from '../../src/engine/types';

function roll(overrides: Partial<OutcomeRollInput> = {}): OutcomeRollInput {
  return { risk: 'high', traitConsistency: 0, turnCount: 0, recentOutcomes: [], ...overrides };
}

const THREE_SUCCESSES: Outcome[] = ['success', 'success', 'success'];
const FIVE_SUCCESSES: Outcome[] = ['success', 'success', 'success', 'success', 'success'];

describe('failureChance', () => {
  it('starts from 0.4 for high risk, 0.25 for medium and 0.1 for low', () => {
    expect(failureChance(roll({ risk: 'high' }))).toBe(0.4);
    expect(failureChance(roll({ risk: 'medium' }))).toBe(0.25);
    expect(failureChance(roll({ risk: 'low' }))).toBe(0.1);
  });

  it('subtracts traitConsistency / 200', () => {
    expect(failureChance(roll({ traitConsistency: 50 }))).toBeCloseTo(0.15, 10);
    expect(failureChance(roll({ risk: 'medium', traitConsistency: 20 }))).toBeCloseTo(0.15, 10);
  });

  it('adds 0.15 times the share of 30 turns played, capped at 30 turns', () => {
    expect(failureChance(roll({ turnCount: 15 }))).toBeCloseTo(0.475, 10);
    expect(failureChance(roll({ turnCount: 30 }))).toBeCloseTo(0.55, 10);
    expect(failureChance(roll({ turnCount: 90 }))).toBeCloseTo(0.55, 10);
  });

  it('adds 0.2 after three straight successes, and only then', () => {
    expect(failureChance(roll({ recentOutcomes: THREE_SUCCESSES }))).toBeCloseTo(0.6, 10);
    const afterSetback: Outcome[] = ['partial', 'success', 'success'];
    expect(failureChance(roll({ recentOutcomes: afterSetback }))).toBe(0.4);
    expect(failureChance(roll({ recentOutcomes: ['success', 'success'] }))).toBe(0.4);
    const streakThenFailure: Outcome[] = [...THREE_SUCCESSES, 'failure'];
    expect(failureChance(roll({ recentOutcomes: streakThenFailure }))).toBe(0.4);
  });

  it('never goes below the floor of 0.05', () => {
    expect(failureChance(roll({ risk: 'low', traitConsistency: 100 }))).toBe(0.05);
    expect(failureChance(roll({ risk: 'low', traitConsistency: 10 }))).toBe(0.05);
    expect(failureChance(roll({ risk: 'low', traitConsistency: 9 }))).toBeCloseTo(0.055, 10);
  });

  it('combines every term', () => {
    const late = roll({
      risk: 'medium',
      traitConsistency: 30,
      turnCount: 20,
      recentOutcomes: THREE_SUCCESSES,
    });
    // 0.25 - 0.15 + 0.1 + 0.2
    expect(failureChance(late)).toBeCloseTo(0.4, 10);
  });
});

describe('rollOutcome', () => {
  it('fails below the failure chance, is partial in the next 0.3, succeeds above', () => {
    expect(rollOutcome(roll(), scriptedRng([0.39]))).toBe('failure');
    expect(rollOutcome(roll(), scriptedRng([0.4]))).toBe('partial');
    expect(rollOutcome(roll(), scriptedRng([0.69]))).toBe('partial');
    expect(rollOutcome(roll(), scriptedRng([0.7]))).toBe('success');
    expect(rollOutcome(roll({ risk: 'low' }), scriptedRng([0.09]))).toBe('failure');
    expect(rollOutcome(roll({ risk: 'low' }), scriptedRng([0.1]))).toBe('partial');
    expect(rollOutcome(roll({ risk: 'low' }), scriptedRng([0.4]))).toBe('success');
  });

  it('forces a failure on a roll below 0.7 after five straight successes', () => {
    // One roll only: scriptedRng would throw if a second were drawn.
    expect(rollOutcome(roll({ recentOutcomes: FIVE_SUCCESSES }), scriptedRng([0.69]))).toBe(
      'failure',
    );
  });

  it('otherwise rolls again with the streak bonus', () => {
    const streak = roll({ recentOutcomes: FIVE_SUCCESSES }); // failure chance 0.4 + 0.2
    expect(rollOutcome(streak, scriptedRng([0.7, 0.59]))).toBe('failure');
    expect(rollOutcome(streak, scriptedRng([0.7, 0.61]))).toBe('partial');
    expect(rollOutcome(streak, scriptedRng([0.7, 0.91]))).toBe('success');
  });

  it('does not force a failure when the last five were not all successes', () => {
    const broken: Outcome[] = ['partial', 'success', 'success', 'success', 'success'];
    // Failure chance 0.6 (the three-success bonus applies); 0.69 would have forced a failure.
    expect(rollOutcome(roll({ recentOutcomes: broken }), scriptedRng([0.69]))).toBe('partial');
    expect(rollOutcome(roll({ recentOutcomes: broken }), scriptedRng([0.95]))).toBe('success');
  });
});

describe('outcomeOdds', () => {
  it('splits an ordinary roll into failure, the 0.3 partial band and the rest', () => {
    const odds = outcomeOdds(roll());
    expect(odds.failure).toBe(0.4);
    expect(odds.partial).toBe(0.3);
    expect(odds.success).toBeCloseTo(0.3, 10);
  });

  it('includes the forced failure after five straight successes', () => {
    const odds = outcomeOdds(roll({ recentOutcomes: FIVE_SUCCESSES }));
    // 0.7 forced, then 0.3 of an ordinary roll at 0.6 / 0.3 / 0.1.
    expect(odds.failure).toBeCloseTo(0.88, 10);
    expect(odds.partial).toBeCloseTo(0.09, 10);
    expect(odds.success).toBeCloseTo(0.03, 10);
  });

  it('shrinks the partial band when failure and partial would pass 1', () => {
    const worst = roll({ turnCount: 30, recentOutcomes: FIVE_SUCCESSES });
    expect(failureChance(worst)).toBeCloseTo(0.75, 10);
    const odds = outcomeOdds(roll({ turnCount: 30, recentOutcomes: THREE_SUCCESSES }));
    expect(odds.failure).toBeCloseTo(0.75, 10);
    expect(odds.partial).toBeCloseTo(0.25, 10);
    expect(odds.success).toBeCloseTo(0, 10);
  });

  it('always gives probabilities that sum to 1', () => {
    const anyRoll = fc.record({
      risk: fc.constantFrom('low' as const, 'medium' as const, 'high' as const),
      traitConsistency: fc.integer({ min: 0, max: 100 }),
      turnCount: fc.integer({ min: 0, max: 100 }),
      recentOutcomes: fc.array(fc.constantFrom<Outcome>('success', 'partial', 'failure'), {
        maxLength: 10,
      }),
    });
    fc.assert(
      fc.property(anyRoll, (input) => {
        const { failure, partial, success } = outcomeOdds(input);
        const chance = failureChance(input);
        expect(chance).toBeGreaterThanOrEqual(0.05);
        expect(chance).toBeLessThanOrEqual(0.75);
        for (const p of [failure, partial, success]) {
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
        }
        expect(failure + partial + success).toBeCloseTo(1, 10);
      }),
    );
  });
});

describe('rollOutcome over 100,000 seeded rolls matches outcomeOdds', () => {
  const ROLLS = 100_000;
  const TOLERANCE = 0.01;

  const settings: [string, OutcomeRollInput][] = [
    ['high risk', roll({ risk: 'high' })],
    ['medium risk', roll({ risk: 'medium' })],
    ['low risk', roll({ risk: 'low' })],
    ['low risk at the floor', roll({ risk: 'low', traitConsistency: 80 })],
    [
      'medium risk late on a three-success streak',
      roll({
        risk: 'medium',
        traitConsistency: 30,
        turnCount: 20,
        recentOutcomes: THREE_SUCCESSES,
      }),
    ],
    ['high risk on a five-success streak', roll({ recentOutcomes: FIVE_SUCCESSES })],
  ];

  it.each(settings)('%s', (_name, input) => {
    const rng = seededRng(20240601);
    const counts: Record<Outcome, number> = { success: 0, partial: 0, failure: 0 };
    for (let i = 0; i < ROLLS; i += 1) counts[rollOutcome(input, rng)] += 1;

    const odds = outcomeOdds(input);
    expect(Math.abs(counts.failure / ROLLS - odds.failure)).toBeLessThan(TOLERANCE);
    expect(Math.abs(counts.partial / ROLLS - odds.partial)).toBeLessThan(TOLERANCE);
    expect(Math.abs(counts.success / ROLLS - odds.success)).toBeLessThan(TOLERANCE);
  });
});

import fc from 'fast-check';

import {
  STAT_RANGES,
  applyChoiceToStats,
  clamp,
  playerStatsInRange,
  successRate,
} from '../../src/engine/stats';
import type { StatChoice } from '../../src/engine/stats';
import { INITIAL_PLAYER_STATS } from '../../src/engine/types';
import type { Alignment, Outcome, PlayerStats, Risk } from '../../src/engine/types';

const PLAIN: StatChoice = { risk: 'medium', alignment: 'neutral', traitAlignment: '' };

function after(
  stats: Partial<PlayerStats>,
  choice: Partial<StatChoice>,
  outcome: Outcome = 'partial',
  outcomesSoFar: readonly Outcome[] = [outcome],
): PlayerStats {
  return applyChoiceToStats(
    { ...INITIAL_PLAYER_STATS, ...stats },
    { ...PLAIN, ...choice },
    outcome,
    outcomesSoFar,
  );
}

describe('clamp', () => {
  it('keeps a value within its bounds', () => {
    expect(clamp(5, 0, 10)).toBe(5);
    expect(clamp(-1, 0, 10)).toBe(0);
    expect(clamp(11, 0, 10)).toBe(10);
  });
});

describe('riskScore', () => {
  it('moves +8 for high, +5 for medium and -5 for low risk', () => {
    expect(after({ riskScore: 50 }, { risk: 'high' }).riskScore).toBe(58);
    expect(after({ riskScore: 50 }, { risk: 'medium' }).riskScore).toBe(55);
    expect(after({ riskScore: 50 }, { risk: 'low' }).riskScore).toBe(45);
  });

  it('stays within 0..100', () => {
    expect(after({ riskScore: 3 }, { risk: 'low' }).riskScore).toBe(0);
    expect(after({ riskScore: 0 }, { risk: 'low' }).riskScore).toBe(0);
    expect(after({ riskScore: 96 }, { risk: 'high' }).riskScore).toBe(100);
  });
});

describe('moralScore', () => {
  it('moves +10 for moral, -10 for immoral and not at all for neutral', () => {
    expect(after({ moralScore: 20 }, { alignment: 'moral' }).moralScore).toBe(30);
    expect(after({ moralScore: 20 }, { alignment: 'immoral' }).moralScore).toBe(10);
    expect(after({ moralScore: 20 }, { alignment: 'neutral' }).moralScore).toBe(20);
    expect(after({ moralScore: 0 }, { alignment: 'immoral' }).moralScore).toBe(-10);
  });

  it('stays within -100..100', () => {
    expect(after({ moralScore: 95 }, { alignment: 'moral' }).moralScore).toBe(100);
    expect(after({ moralScore: -95 }, { alignment: 'immoral' }).moralScore).toBe(-100);
  });
});

describe('traitConsistency', () => {
  it('gains 5 when the option plays to a trait and loses 3 when it does not', () => {
    expect(after({ traitConsistency: 40 }, { traitAlignment: 'brave' }).traitConsistency).toBe(45);
    expect(after({ traitConsistency: 40 }, { traitAlignment: '' }).traitConsistency).toBe(37);
  });

  it('treats a blank trait alignment as none', () => {
    expect(after({ traitConsistency: 40 }, { traitAlignment: '   ' }).traitConsistency).toBe(37);
  });

  it('stays within 0..100', () => {
    expect(after({ traitConsistency: 1 }, { traitAlignment: '' }).traitConsistency).toBe(0);
    expect(after({ traitConsistency: 98 }, { traitAlignment: 'sly' }).traitConsistency).toBe(100);
  });
});

describe('creativity', () => {
  it('gains 8 only on a success with a high-risk option', () => {
    expect(after({ creativity: 10 }, { risk: 'high' }, 'success').creativity).toBe(18);
    expect(after({ creativity: 10 }, { risk: 'high' }, 'partial').creativity).toBe(10);
    expect(after({ creativity: 10 }, { risk: 'high' }, 'failure').creativity).toBe(10);
    expect(after({ creativity: 10 }, { risk: 'medium' }, 'success').creativity).toBe(10);
  });

  it('tops out at 100', () => {
    expect(after({ creativity: 96 }, { risk: 'high' }, 'success').creativity).toBe(100);
  });
});

describe('successRate', () => {
  it('is successes over successes plus failures, partials left out, rounded', () => {
    expect(successRate(['success', 'failure', 'partial'])).toBe(50);
    expect(successRate(['success', 'success', 'failure'])).toBe(67);
    expect(successRate(['success', 'failure', 'failure'])).toBe(33);
    expect(successRate(['success', 'partial', 'partial'])).toBe(100);
    expect(successRate(['failure', 'partial'])).toBe(0);
  });

  it('is 0 with no successes or failures yet', () => {
    expect(successRate([])).toBe(0);
    expect(successRate(['partial', 'partial'])).toBe(0);
  });

  it('is worked out over every outcome so far, this turn included', () => {
    const history: Outcome[] = ['failure', 'success', 'success'];
    expect(after({ successRate: 50 }, {}, 'success', history).successRate).toBe(67);
  });
});

describe('applyChoiceToStats', () => {
  it('treats a free-text choice (medium, neutral, no trait) as such', () => {
    const stats = { moralScore: -20, riskScore: 30, traitConsistency: 30, creativity: 5 };
    expect(after(stats, PLAIN, 'success', ['success'])).toEqual({
      moralScore: -20,
      riskScore: 35,
      traitConsistency: 27,
      creativity: 5,
      successRate: 100,
    });
  });

  it('leaves the stats it was given untouched', () => {
    const stats: PlayerStats = { ...INITIAL_PLAYER_STATS, riskScore: 10 };
    applyChoiceToStats(stats, { ...PLAIN, risk: 'high' }, 'success', ['success']);
    expect(stats).toEqual({ ...INITIAL_PLAYER_STATS, riskScore: 10 });
  });

  it('keeps every stat within its range over any run of choices', () => {
    const anyTurn = fc.record({
      choice: fc.record({
        risk: fc.constantFrom<Risk>('low', 'medium', 'high'),
        alignment: fc.constantFrom<Alignment>('moral', 'immoral', 'neutral'),
        traitAlignment: fc.constantFrom('', ' ', 'brave', 'curious'),
      }),
      outcome: fc.constantFrom<Outcome>('success', 'partial', 'failure'),
    });
    fc.assert(
      fc.property(fc.array(anyTurn, { maxLength: 60 }), (turns) => {
        let stats = INITIAL_PLAYER_STATS;
        const outcomes: Outcome[] = [];
        for (const { choice, outcome } of turns) {
          outcomes.push(outcome);
          stats = applyChoiceToStats(stats, choice, outcome, outcomes);
          expect(stats.moralScore).toBeGreaterThanOrEqual(-100);
          expect(stats.moralScore).toBeLessThanOrEqual(100);
          for (const stat of [
            stats.riskScore,
            stats.traitConsistency,
            stats.creativity,
            stats.successRate,
          ]) {
            expect(stat).toBeGreaterThanOrEqual(0);
            expect(stat).toBeLessThanOrEqual(100);
            expect(Number.isInteger(stat)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('STAT_RANGES', () => {
  it('matches SPEC.md section 9: moral -100..100, the others 0..100', () => {
    expect(STAT_RANGES).toEqual({
      moralScore: { min: -100, max: 100 },
      riskScore: { min: 0, max: 100 },
      traitConsistency: { min: 0, max: 100 },
      creativity: { min: 0, max: 100 },
      successRate: { min: 0, max: 100 },
    });
  });
});

describe('playerStatsInRange', () => {
  it('keeps stats that are in range', () => {
    const stats = {
      moralScore: -40,
      riskScore: 13,
      traitConsistency: 0,
      creativity: 100,
      successRate: 50,
    };
    expect(playerStatsInRange(stats)).toEqual(stats);
  });

  it('clamps numbers out of range to the nearer end', () => {
    expect(
      playerStatsInRange({
        moralScore: -1e9,
        riskScore: 1e9,
        traitConsistency: -1,
        creativity: 100.5,
        successRate: Number.MAX_VALUE,
      }),
    ).toEqual({
      moralScore: -100,
      riskScore: 100,
      traitConsistency: 0,
      creativity: 100,
      successRate: 100,
    });
  });

  it('starts anything that is not a finite number at its start value', () => {
    expect(
      playerStatsInRange({
        moralScore: Number.NaN,
        riskScore: '50',
        traitConsistency: Number.POSITIVE_INFINITY,
        creativity: null,
      }),
    ).toEqual(INITIAL_PLAYER_STATS);
    for (const stored of [undefined, null, 'stats', 7, []]) {
      expect(playerStatsInRange(stored)).toEqual(INITIAL_PLAYER_STATS);
    }
  });

  it('keeps only the five stats', () => {
    expect(Object.keys(playerStatsInRange({ riskScore: 5, luck: 99 })).sort()).toEqual(
      Object.keys(INITIAL_PLAYER_STATS).sort(),
    );
  });
});

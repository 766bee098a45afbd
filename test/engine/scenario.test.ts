import fc from 'fast-check';

import { scriptedRng, seededRng } from '../../src/engine/random';
import { chooseScenarioType, isLeaning, standardChance } from '../../src/engine/scenario';
import type { ScenarioInput } from '../../src/engine/scenario';
import { INITIAL_PLAYER_STATS, SCENARIO_TYPES } from '../../src/engine/types';
import type { Alignment, PlayerStats, ScenarioType } from '../../src/engine/types';

/**
 * A mid-story turn where no rule from 1 to 7 applies: the choice goes straight to rule 8.
 * moralScore 40 keeps rule 5 (|moralScore| < 30) out of the way.
 */
function quietTurn(
  overrides: Partial<Omit<ScenarioInput, 'playerStats'>> & { stats?: Partial<PlayerStats> } = {},
): ScenarioInput {
  const { stats, ...rest } = overrides;
  return {
    turnCount: 10,
    playerStats: { ...INITIAL_PLAYER_STATS, moralScore: 40, ...stats },
    scenarioHistory: [],
    moralChoices: [],
    ...rest,
  };
}

/** Chooses with exactly these rolls: it fails if the rule takes more rolls or fewer. */
function choose(input: ScenarioInput, rolls: readonly number[]): ScenarioType {
  const rng = scriptedRng(rolls);
  let used = 0;
  const type = chooseScenarioType(input, () => {
    used += 1;
    return rng();
  });
  expect(used).toBe(rolls.length);
  return type;
}

// Rolls that get through rule 8 to the random pick (turn 10: standard chance about 0.15).
const MISS_DILEMMA = 0.3;
const MISS_STANDARD = 0.16;
const PICK_FIRST = 0;

describe('rule 1: the climax turns 15 to 18', () => {
  it('brings a challenge below 0.6 and a betrayal from 0.6', () => {
    expect(choose(quietTurn({ turnCount: 15 }), [0.59])).toBe('challenge');
    expect(choose(quietTurn({ turnCount: 15 }), [0.6])).toBe('betrayal');
    expect(choose(quietTurn({ turnCount: 18 }), [0.99])).toBe('betrayal');
  });

  it('comes before every other rule', () => {
    const dark = quietTurn({ turnCount: 16, stats: { moralScore: -90, riskScore: 90 } });
    expect(choose(dark, [0.1])).toBe('challenge');
  });

  it('does not apply on turns 14 and 19', () => {
    for (const turnCount of [14, 19]) {
      // Rule 8 at the floor standard chance 0.1: 0.09 is a standard scene.
      expect(choose(quietTurn({ turnCount }), [MISS_DILEMMA, 0.09])).toBe('standard');
    }
  });

  it('is skipped when a challenge or a betrayal is among the last 5 scenarios', () => {
    const history: ScenarioType[] = ['betrayal', 'standard', 'standard', 'standard', 'standard'];
    const turn = quietTurn({ turnCount: 16, scenarioHistory: history });
    expect(choose(turn, [MISS_DILEMMA, 0.09])).toBe('standard');
    const withChallenge = quietTurn({
      turnCount: 16,
      scenarioHistory: ['standard', 'challenge', 'standard'],
    });
    expect(choose(withChallenge, [MISS_DILEMMA, 0.09])).toBe('standard');
  });

  it('applies again once the challenge is 6 scenarios back', () => {
    const history: ScenarioType[] = ['challenge', 'standard', 'dilemma', 'standard', 'standard'];
    const turn = quietTurn({ turnCount: 17, scenarioHistory: [...history, 'standard'] });
    expect(choose(turn, [0.2])).toBe('challenge');
  });
});

describe('rule 2: moralScore below -50', () => {
  const dark = quietTurn({ stats: { moralScore: -51 } });

  it('brings a consequence below 0.7', () => {
    expect(choose(dark, [0.69])).toBe('consequence');
  });

  it('falls through to the next rules from 0.7', () => {
    expect(choose(dark, [0.7, 0.29])).toBe('dilemma');
  });

  it('does not apply at exactly -50', () => {
    expect(choose(quietTurn({ stats: { moralScore: -50 } }), [0.29])).toBe('dilemma');
  });

  it('falls through when a consequence is among the last 5 even if the roll succeeds', () => {
    const turn = quietTurn({
      stats: { moralScore: -80 },
      scenarioHistory: ['consequence', 'standard', 'standard'],
    });
    expect(choose(turn, [0.1, 0.29])).toBe('dilemma');
  });
});

describe('rule 3: riskScore above 70', () => {
  it('brings a challenge below 0.7', () => {
    expect(choose(quietTurn({ stats: { riskScore: 71 } }), [0.69])).toBe('challenge');
    expect(choose(quietTurn({ stats: { riskScore: 71 } }), [0.7, 0.29])).toBe('dilemma');
  });

  it('does not apply at exactly 70', () => {
    expect(choose(quietTurn({ stats: { riskScore: 70 } }), [0.29])).toBe('dilemma');
  });

  it('is tried after rule 2 when both apply', () => {
    const reckless = quietTurn({ stats: { moralScore: -60, riskScore: 80 } });
    expect(choose(reckless, [0.1])).toBe('consequence');
    expect(choose(reckless, [0.8, 0.1])).toBe('challenge');
  });

  it('falls through when a challenge is among the last 5', () => {
    const turn = quietTurn({ stats: { riskScore: 90 }, scenarioHistory: ['challenge'] });
    expect(choose(turn, [0.1, 0.29])).toBe('dilemma');
  });
});

describe('rule 4: fewer than 5 turns', () => {
  it('brings a companion below 0.5', () => {
    expect(choose(quietTurn({ turnCount: 4 }), [0.49])).toBe('companion');
    expect(choose(quietTurn({ turnCount: 0 }), [0.2])).toBe('companion');
  });

  it('falls through from 0.5', () => {
    expect(choose(quietTurn({ turnCount: 4 }), [0.5, 0.29])).toBe('dilemma');
  });

  it('does not apply on turn 5', () => {
    expect(choose(quietTurn({ turnCount: 5 }), [0.29])).toBe('dilemma');
  });

  it('falls through when a companion is among the last 5', () => {
    const turn = quietTurn({ turnCount: 3, scenarioHistory: ['standard', 'companion'] });
    expect(choose(turn, [0.1, 0.29])).toBe('dilemma');
  });
});

describe('rule 5: |moralScore| under 30', () => {
  it('brings a moral choice below 0.6 on either side of zero', () => {
    expect(choose(quietTurn({ stats: { moralScore: 29 } }), [0.59])).toBe('moral_choice');
    expect(choose(quietTurn({ stats: { moralScore: -29 } }), [0.59])).toBe('moral_choice');
    expect(choose(quietTurn({ stats: { moralScore: 0 } }), [0])).toBe('moral_choice');
  });

  it('falls through from 0.6', () => {
    expect(choose(quietTurn({ stats: { moralScore: 0 } }), [0.6, 0.29])).toBe('dilemma');
  });

  it('does not apply at exactly 30 or -30', () => {
    expect(choose(quietTurn({ stats: { moralScore: 30 } }), [0.29])).toBe('dilemma');
    expect(choose(quietTurn({ stats: { moralScore: -30 } }), [0.29])).toBe('dilemma');
  });

  it('falls through when a moral choice is among the last 5', () => {
    const turn = quietTurn({ stats: { moralScore: 10 }, scenarioHistory: ['moral_choice'] });
    expect(choose(turn, [0.1, 0.29])).toBe('dilemma');
  });
});

describe('rules 6 and 7: a leaning over the last 5 moral choices', () => {
  const fourMoral: Alignment[] = ['moral', 'moral', 'neutral', 'moral', 'moral'];
  const fourImmoral: Alignment[] = ['immoral', 'immoral', 'immoral', 'moral', 'immoral'];

  it('brings a betrayal below 0.6 when more than 70% were moral', () => {
    expect(choose(quietTurn({ moralChoices: fourMoral }), [0.59])).toBe('betrayal');
    expect(choose(quietTurn({ moralChoices: fourMoral }), [0.6, 0.29])).toBe('dilemma');
  });

  it('brings a consequence below 0.6 when more than 70% were immoral', () => {
    expect(choose(quietTurn({ moralChoices: fourImmoral }), [0.59])).toBe('consequence');
    expect(choose(quietTurn({ moralChoices: fourImmoral }), [0.6, 0.29])).toBe('dilemma');
  });

  it('waits for 5 choices: one moral choice is not a leaning (SPEC.md rules 6 and 7)', () => {
    expect(isLeaning(['moral'], 'moral')).toBe(false);
    expect(isLeaning(['moral', 'moral', 'moral', 'moral'], 'moral')).toBe(false);
    expect(isLeaning(['immoral', 'immoral', 'immoral', 'immoral'], 'immoral')).toBe(false);
    // Four moral choices go straight on to rule 8 (0.29 is its dilemma).
    const four: Alignment[] = ['moral', 'moral', 'moral', 'moral'];
    expect(choose(quietTurn({ moralChoices: four }), [0.29])).toBe('dilemma');
    // The fifth makes the leaning, and rule 6 rolls.
    expect(choose(quietTurn({ moralChoices: [...four, 'moral'] }), [0.59])).toBe('betrayal');
  });

  it('needs more than 70%: 4 of 5 leans, 3 of 5 does not', () => {
    const threeOfFive: Alignment[] = ['moral', 'neutral', 'moral', 'immoral', 'moral'];
    expect(isLeaning(threeOfFive, 'moral')).toBe(false);
    expect(choose(quietTurn({ moralChoices: threeOfFive }), [0.29])).toBe('dilemma');
  });

  it('looks only at the last 5 choices', () => {
    const turnedGood: Alignment[] = ['immoral', 'immoral', 'immoral', ...fourMoral];
    expect(choose(quietTurn({ moralChoices: turnedGood }), [0.1])).toBe('betrayal');
  });

  it('falls through when the type is among the last 5', () => {
    const turn = quietTurn({ moralChoices: fourMoral, scenarioHistory: ['betrayal'] });
    expect(choose(turn, [0.1, 0.29])).toBe('dilemma');
  });

  it('tells the leanings apart', () => {
    expect(isLeaning(fourMoral, 'moral')).toBe(true);
    expect(isLeaning(fourMoral, 'immoral')).toBe(false);
    expect(isLeaning(fourImmoral, 'immoral')).toBe(true);
    expect(isLeaning([], 'moral')).toBe(false);
    expect(isLeaning(['moral', 'moral', 'moral', 'neutral', 'neutral'], 'moral')).toBe(false);
  });
});

describe('rule 8: otherwise', () => {
  it('brings a dilemma below 0.3', () => {
    expect(choose(quietTurn(), [0.29])).toBe('dilemma');
  });

  it('skips the dilemma when one is among the last 5', () => {
    const turn = quietTurn({ scenarioHistory: ['dilemma', 'standard'] });
    expect(choose(turn, [0.1, 0.14])).toBe('standard');
  });

  it('gives a standard scene with a chance that falls from 0.4 to a floor of 0.1', () => {
    expect(standardChance(0)).toBe(0.4);
    expect(standardChance(8)).toBeCloseTo(0.2, 10);
    expect(standardChance(10)).toBeCloseTo(0.15, 10);
    expect(standardChance(12)).toBeCloseTo(0.1, 10);
    expect(standardChance(20)).toBe(0.1);
    expect(standardChance(60)).toBe(0.1);
  });

  it('rolls the standard chance against the turn count', () => {
    expect(choose(quietTurn({ turnCount: 5 }), [MISS_DILEMMA, 0.27])).toBe('standard');
    expect(choose(quietTurn({ turnCount: 10 }), [MISS_DILEMMA, 0.14])).toBe('standard');
    expect(choose(quietTurn({ turnCount: 10 }), [MISS_DILEMMA, 0.16, PICK_FIRST])).toBe('dilemma');
    // Turn 0 first rolls rule 4's companion chance (0.5 misses it).
    expect(choose(quietTurn({ turnCount: 0 }), [0.5, MISS_DILEMMA, 0.39])).toBe('standard');
    expect(choose(quietTurn({ turnCount: 0 }), [0.5, MISS_DILEMMA, 0.4, 0])).toBe('dilemma');
    expect(choose(quietTurn({ turnCount: 30 }), [MISS_DILEMMA, 0.09])).toBe('standard');
    expect(choose(quietTurn({ turnCount: 30 }), [MISS_DILEMMA, 0.1, PICK_FIRST])).toBe('dilemma');
  });

  it('otherwise picks evenly among the special types', () => {
    const pick = (roll: number) => choose(quietTurn(), [MISS_DILEMMA, MISS_STANDARD, roll]);
    expect(pick(0)).toBe('dilemma');
    expect(pick(1 / 6)).toBe('consequence');
    expect(pick(2 / 6)).toBe('challenge');
    expect(pick(3 / 6)).toBe('companion');
    expect(pick(4 / 6)).toBe('betrayal');
    expect(pick(0.99)).toBe('moral_choice');
  });

  it('leaves out only the last two scenarios in its random pick (SPEC.md rule 8)', () => {
    // Companion and betrayal are 4th and 5th from the end: no longer excluded by this pick.
    const history: ScenarioType[] = ['companion', 'betrayal', 'standard', 'dilemma', 'challenge'];
    const turn = quietTurn({ scenarioHistory: history });
    // Rolls: rule 8's dilemma (skipped as recent), the standard roll, the pick among
    // consequence, companion, betrayal, moral_choice (dilemma and challenge are the last two).
    const pick = (roll: number) => choose(turn, [0.1, MISS_STANDARD, roll]);
    expect(pick(0)).toBe('consequence');
    expect(pick(0.25)).toBe('companion');
    expect(pick(0.5)).toBe('betrayal');
    expect(pick(0.99)).toBe('moral_choice');
  });

  it('may pick a special type seen 3 to 5 scenarios ago', () => {
    const history: ScenarioType[] = [
      'moral_choice',
      'consequence',
      'challenge',
      'standard',
      'standard',
    ];
    // Candidates: dilemma, consequence, challenge, companion, betrayal, moral_choice.
    expect(
      choose(quietTurn({ scenarioHistory: history }), [MISS_DILEMMA, MISS_STANDARD, 0.99]),
    ).toBe('moral_choice');
  });
});

describe('chooseScenarioType, for any game so far', () => {
  const anyInput = fc.record({
    turnCount: fc.integer({ min: 0, max: 40 }),
    playerStats: fc.record({
      moralScore: fc.integer({ min: -100, max: 100 }),
      riskScore: fc.integer({ min: 0, max: 100 }),
      traitConsistency: fc.integer({ min: 0, max: 100 }),
      creativity: fc.integer({ min: 0, max: 100 }),
      successRate: fc.integer({ min: 0, max: 100 }),
    }),
    scenarioHistory: fc.array(fc.constantFrom(...SCENARIO_TYPES), { maxLength: 12 }),
    moralChoices: fc.array(fc.constantFrom<Alignment>('moral', 'immoral', 'neutral'), {
      maxLength: 12,
    }),
  });

  it('returns a known type, never a special type among the last 2 scenarios', () => {
    fc.assert(
      fc.property(anyInput, fc.integer(), (input, seed) => {
        const type = chooseScenarioType(input, seededRng(seed));
        const recent = input.scenarioHistory.slice(-2);
        expect(SCENARIO_TYPES).toContain(type);
        if (type !== 'standard') expect(recent).not.toContain(type);
      }),
      { numRuns: 2000 },
    );
  });
});

import { endingScore } from '../../../src/engine/score';

/** A finished game's result whose score is what the game's formula gives (SPEC.md section 9). */
export function plausibleResult(
  overrides: { character?: string; ending?: string; turns?: number; decisions?: number } = {},
) {
  const turns = overrides.turns ?? 9;
  const scoreBreakdown = {
    decisions: overrides.decisions ?? 70,
    consistency: 60,
    creativity: 55,
    morality: 40,
  };
  const playerStats = {
    moralScore: 20,
    riskScore: 45,
    traitConsistency: 60,
    creativity: 16,
    successRate: 67,
  };
  const endingType = overrides.ending ?? 'Heroic Victory';
  const { score } = endingScore({
    scoreBreakdown,
    turnCount: turns,
    successRate: playerStats.successRate,
    endingType,
  });
  return {
    score,
    ending_type: endingType,
    character_name: overrides.character ?? 'Aria Vale',
    genre: 'High Fantasy',
    turn_count: turns,
    detailed_stats: {
      scoreBreakdown,
      playerStats,
      turnCount: turns,
      moralChoices: ['moral', 'neutral', 'moral'],
      successfulChoices: 4,
      enhancedScore: score,
    },
  };
}

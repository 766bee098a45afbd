/**
 * gameResultOf: the result a finished story gives (SPEC.md section 3, game_results), the one
 * the ending screen shows and Save Adventure Results sends. The score is read from the story;
 * only a story saved before the game kept it has it from the formula (SPEC.md section 9).
 */
import { endingScore } from '../../../src/engine/score';
import { gameResultOf, initialStory, type Story } from '../../../src/features/game';
import { RECAP } from '../../fixtures/games';

const FINISHED: Story = {
  ...initialStory,
  chosenGenre: 'Gothic mystery',
  chosenCharacter: 'Ada Quill',
  turnCount: 9,
  isFinal: true,
  rewrites: 2,
  moralChoices: ['moral', 'neutral', 'immoral'],
  outcomes: ['success', 'failure', 'success', 'partial', 'success'],
  playerStats: {
    moralScore: 30,
    riskScore: 45,
    traitConsistency: 60,
    creativity: 16,
    successRate: 75,
  },
  scoreBreakdown: { decisions: 80, consistency: 70, creativity: 60, morality: 90 },
  recap: RECAP,
  finalScore: 353,
};

test('a story without its recap has no result yet', () => {
  expect(gameResultOf(initialStory)).toBeNull();
  expect(gameResultOf({ ...FINISHED, recap: null })).toBeNull();
});

test('the result of a finished story, as the leaderboard keeps it', () => {
  expect(gameResultOf(FINISHED)).toEqual({
    score: 353,
    ending_type: 'Heroic Victory',
    character_name: 'Ada Quill',
    genre: 'Gothic mystery',
    turn_count: 9,
    detailed_stats: {
      scoreBreakdown: FINISHED.scoreBreakdown,
      playerStats: FINISHED.playerStats,
      turnCount: 9,
      moralChoices: ['moral', 'neutral', 'immoral'],
      successfulChoices: 3,
      enhancedScore: 353,
      rewrites: 2,
    },
  });
});

test('the score is the story’s own, read rather than worked out again', () => {
  // Whatever the formula would give now, the result says what the conclusion computed.
  const result = gameResultOf({ ...FINISHED, finalScore: 120 });
  expect(result?.score).toBe(120);
  expect(result?.detailed_stats.enhancedScore).toBe(120);
});

test('a story saved before its score was kept has it from the formula', () => {
  const { score } = endingScore({
    scoreBreakdown: FINISHED.scoreBreakdown,
    turnCount: 9,
    successRate: 75,
    endingType: 'Heroic Victory',
  });
  expect(score).toBe(353);
  expect(gameResultOf({ ...FINISHED, finalScore: null })?.score).toBe(score);
  // A Korean ending name counts as the ending it is.
  const tragic = gameResultOf({
    ...FINISHED,
    finalScore: null,
    recap: { ...RECAP, endingType: '비극적 몰락' },
  });
  expect(tragic?.ending_type).toBe('비극적 몰락');
  expect(tragic?.score).toBe(
    endingScore({
      scoreBreakdown: FINISHED.scoreBreakdown,
      turnCount: 9,
      successRate: 75,
      endingType: 'Tragic Downfall',
    }).score,
  );
});

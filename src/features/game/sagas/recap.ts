/**
 * The recap and the score (SPEC.md sections 3 and 9): once the story has ended, the model
 * writes the wrap-up from every summary, and the game computes the ending score.
 */
import { call, put, select } from 'typed-redux-saga';
import { pickText } from '../../../engine/reply';
import { endingScore } from '../../../engine/score';
import type { ScoreBreakdown } from '../../../engine/types';
import { REPLY_TOKENS } from '../../llm';
import { gameActions } from '../gameSlice';
import { scoreComputed } from '../playerStatsSlice';
import { RETRY_LIMITS, askModel, currentPrompts } from './askModel';
import { TRIMMED_CONTEXT_BUDGET, has, selectState, storySoFar } from './gameState';

const percent = (value: unknown) => {
  const number = Math.round(Number(value));
  return Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : 0;
};

/**
 * The recap worker: from the final segment received to the score computed and the recap
 * received. Errors are thrown for the turn that called it to show.
 */
export function* writeRecap(finalSegment: ReturnType<typeof gameActions.segmentReceived>) {
  const prompts = yield* currentPrompts();
  const { game, playerStats } = yield* select(selectState);
  const input = {
    ...storySoFar(game),
    finalParagraph: finalSegment.payload.text,
    turnCount: game.turnCount,
    playerStats: playerStats.playerStats,
    moralChoices: game.moralChoices,
    outcomes: game.outcomes,
  };
  const reply = yield* call(askModel, prompts.recap(input), {
    retries: RETRY_LIMITS.unlimited,
    replyTokens: REPLY_TOKENS.recap,
    trimmed: () => prompts.recap({ ...input, contextBudget: TRIMMED_CONTEXT_BUDGET }),
    accept: has('wrapUpParagraph'),
  });
  const breakdown = (reply.scoreBreakdown ?? {}) as Record<string, unknown>;
  const scoreBreakdown: ScoreBreakdown = {
    decisions: percent(breakdown.decisions),
    consistency: percent(breakdown.consistency),
    creativity: percent(breakdown.creativity),
    morality: percent(breakdown.morality),
  };
  const endingType = pickText(reply, 'endingType') || 'Bittersweet Resolution';
  const { score } = endingScore({
    scoreBreakdown,
    turnCount: game.turnCount,
    successRate: playerStats.playerStats.successRate,
    endingType,
  });
  yield* put(scoreComputed({ scoreBreakdown, score }));
  yield* put(
    gameActions.recapReceived({
      wrapUpParagraph: pickText(reply, 'wrapUpParagraph'),
      bigMoment: pickText(reply, 'bigMoment'),
      frequentActivity: pickText(reply, 'frequentActivity'),
      characterTraitHighlight: pickText(reply, 'characterTraitHighlight'),
      themeExploration: pickText(reply, 'themeExploration'),
      overallScore: Math.max(1, percent(reply.overallScore)),
      endingType,
    }),
  );
}

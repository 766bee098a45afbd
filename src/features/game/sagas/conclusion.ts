/**
 * The conclusion (SPEC.md sections 3, 4 and 9): from turn 7 each turn asks the model whether
 * the story ends; when it does, the final segment's summary is written, then the recap from
 * every summary, and the game computes the ending score.
 */
import { call, put, select } from 'typed-redux-saga';
import { pickText } from '../../../engine/reply';
import { endingScore } from '../../../engine/score';
import type { ScoreBreakdown } from '../../../engine/types';
import { REPLY_TOKENS } from '../../llm';
import { gameActions, type ResolvedChoice } from '../gameSlice';
import { FIRST_ENDING_TURN, storySoFar } from '../turnPrompt';
import { RETRY_LIMITS, TRIMMED_CONTEXT_BUDGET, askModel, currentPrompts } from './askModel';
import { selectState } from './flowState';
import { endsStory, has, segmentOrEnding, withOptions } from './gameState';
import { summaryOfLastSegment, writeSummary } from './summaries';

/**
 * The conclusion check (SPEC.md section 4): what a turn's reply must hold, and whether it ended
 * the story. Before turn 7 a reply must go on with options, whatever it says about ending.
 */
export function conclusionCheck(turn: number) {
  const mayEnd = turn >= FIRST_ENDING_TURN;
  return {
    accept: mayEnd ? segmentOrEnding : withOptions('storySegment'),
    ends: (reply: Record<string, unknown>) => mayEnd && endsStory(reply),
  };
}

const percent = (value: unknown) => {
  const number = Math.round(Number(value));
  return Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : 0;
};

/** The recap, and the score computed from it. Errors are thrown for the flow's policy. */
function* writeRecap() {
  const prompts = yield* currentPrompts();
  const { story } = (yield* select(selectState)).game;
  const input = {
    ...storySoFar(story),
    finalParagraph: story.previousParagraph,
    turnCount: story.turnCount,
    playerStats: story.playerStats,
    moralChoices: story.moralChoices,
    outcomes: story.outcomes,
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
    turnCount: story.turnCount,
    successRate: story.playerStats.successRate,
    endingType,
  });
  yield* put(gameActions.scoreComputed({ scoreBreakdown, score }));
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

/**
 * The conclusion worker: the story has ended (the phase is `concluding`). The final segment's
 * summary, when its reply left it out, is written within the turn (the recap reads every
 * summary); then the recap and the score. After a failed recap, Try again runs it again.
 */
export function* concludeStory(choice: ResolvedChoice | null) {
  const { game } = yield* select(selectState);
  if (game.turn.phase !== 'concluding') return;
  if (game.summary === 'pending') {
    const { story } = game;
    yield* call(writeSummary, story, choice?.option.text, story.previousParagraph);
  }
  yield* call(summaryOfLastSegment);
  yield* call(writeRecap);
}

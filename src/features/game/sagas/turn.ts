/**
 * A turn (SPEC.md section 4; the rules stay with the game): the choice made, the outcome
 * rolled and the scenario type picked by the game, then the model writes the segment, its
 * options and its summary in one reply. From turn 7 the turn is the conclusion check: the
 * model may end the story, and the recap follows in the same turn.
 */
import { call, put, race, select } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { normalizeOptions } from '../../../engine/options';
import { rollOutcome } from '../../../engine/outcome';
import { pickText } from '../../../engine/reply';
import { chooseScenarioType } from '../../../engine/scenario';
import type { StoryOption } from '../../../engine/types';
import { REPLY_TOKENS, isAbortError } from '../../llm';
import { canChoose, gameActions, type GameState, type ResolvedChoice } from '../gameSlice';
import { RETRY_LIMITS, askModel, currentPrompts } from './askModel';
import { turnInput, turnUse } from '../turnPrompt';
import {
  TRIMMED_CONTEXT_BUDGET,
  problemWith,
  segmentOrEnding,
  selectState,
  withOptions,
} from './gameState';
import { storyStopped } from './opening';
import { writeRecap } from './recap';
import { summaryOfLastSegment, writeSummary } from './summaries';

/** The option picked, or the player's own words: medium risk, neutral, no trait (issue 5). */
function chosenOption(game: GameState, choice: { index: number } | { text: string }) {
  if ('index' in choice) return { option: game.options[choice.index], freeText: false };
  const text = choice.text.trim();
  if (text === '') return { option: undefined, freeText: true };
  const option: StoryOption = { text, risk: 'medium', alignment: 'neutral', traitAlignment: '' };
  return { option, freeText: true };
}

/** The game's rolls for a choice, each told to the store as it is made. */
function* resolveChoice(payload: ReturnType<typeof gameActions.choiceMade>['payload']) {
  const { game, playerStats } = yield* select(selectState);
  if (!canChoose(game)) return null;
  const { option, freeText } = chosenOption(game, payload);
  if (!option) return null;
  const random = yield* fromContext('random');
  // The turn this choice plays, for every rule and the prompt alike (SPEC.md section 4).
  const turn = game.turnCount + 1;
  // Called as effects, so a replay can hand in a recorded roll (.provide in redux-saga-test-plan).
  const outcome = yield* call(
    rollOutcome,
    {
      risk: option.risk,
      traitConsistency: playerStats.playerStats.traitConsistency,
      turnCount: turn,
      recentOutcomes: game.outcomes,
    },
    random,
  );
  const rolled = { turn, option, freeText, outcome, outcomesSoFar: [...game.outcomes, outcome] };
  yield* put(gameActions.outcomeRolled(rolled));
  const scenarioType = yield* call(
    chooseScenarioType,
    {
      turnCount: turn,
      playerStats: playerStats.playerStats,
      scenarioHistory: game.scenarioHistory,
      moralChoices: game.moralChoices,
    },
    random,
  );
  const resolved: ResolvedChoice = { ...rolled, scenarioType };
  yield* put(gameActions.scenarioPicked(resolved));
  return resolved;
}

/** The model writes the choice's segment; from turn 7 it may end the story. */
function* writeSegment(choice: ResolvedChoice): Generator {
  yield* call(summaryOfLastSegment);
  const prompts = yield* currentPrompts();
  const { game, playerStats } = yield* select(selectState);
  const input = turnInput(game, playerStats.playerStats, choice);
  const use = turnUse(choice.turn);
  const mayEnd = use === 'conclusionCheck';
  try {
    const reply = yield* call(askModel, prompts[use](input), {
      retries: RETRY_LIMITS.unlimited,
      streamField: 'storySegment',
      replyTokens: REPLY_TOKENS[use],
      trimmed: () => prompts[use]({ ...input, contextBudget: TRIMMED_CONTEXT_BUDGET }),
      // Before turn 7 a reply must go on with options, whatever it says about ending.
      accept: mayEnd ? segmentOrEnding : withOptions('storySegment'),
    });
    const text = pickText(reply, 'storySegment');
    const isFinal = mayEnd && (reply.isFinal === true || reply.isFinal === 'true');
    const received = gameActions.segmentReceived({ text, isFinal });
    yield* put(received);
    if (!isFinal) yield* put(gameActions.optionsOffered(normalizeOptions(reply.options)));

    // The summary rides in the reply (DESIGN.md: one request per turn); the spec's separate
    // summary request is the fallback, written behind the options unless the story ended.
    const summary = pickText(reply, 'storySummary');
    if (summary !== '') yield* put(gameActions.summaryStored(summary));
    else if (!isFinal) yield* put(gameActions.summaryMissing());
    else yield* call(writeSummary, game, choice.option.text, text);
    // The recap reads every summary, this one's too.
    if (isFinal) yield* call(writeRecap, received);
  } catch (error) {
    if (isAbortError(error)) return;
    yield* put(gameActions.turnFailed(yield* call(problemWith, error)));
  }
}

/** Cancel on the overlay, Stop, Return to Home and Start New Game stop a turn and its waits. */
function* unlessStopped(work: (choice: ResolvedChoice) => Generator, choice: ResolvedChoice) {
  yield* race({ done: call(work, choice), stopped: call(storyStopped) });
}

/**
 * The turn worker: from the choice made to the segment received and its options offered (and,
 * when the reply carried it, its summary); at the end of the story, to the recap. A choice the game
 * cannot take now (a turn under way, a failed turn, an empty free text) is ignored.
 */
export function* playTurn({ payload }: ReturnType<typeof gameActions.choiceMade>) {
  const resolved = yield* call(resolveChoice, payload);
  if (resolved) yield* call(unlessStopped, writeSegment, resolved);
}

function* retryRecap(): Generator {
  const { game } = yield* select(selectState);
  const final = gameActions.segmentReceived({ text: game.previousParagraph, isFinal: true });
  try {
    yield* call(writeRecap, final);
  } catch (error) {
    if (!isAbortError(error)) yield* put(gameActions.turnFailed(yield* call(problemWith, error)));
  }
}

/**
 * The worker of Try again and of Write it again: the recap when the story had ended, else the
 * turn's segment for the same choice, outcome and scenario (the slice has taken back the
 * paragraph a rewrite replaces).
 */
export function* retryTurn(
  _action:
    | ReturnType<typeof gameActions.turnRetryRequested>
    | ReturnType<typeof gameActions.rewriteRequested>,
) {
  const { game } = yield* select(selectState);
  if (!game.lastChoice || !game.isLoading) return;
  yield* call(unlessStopped, game.isFinal ? retryRecap : writeSegment, game.lastChoice);
}

/**
 * A turn (SPEC.md section 4; the rules stay with the game): the choice made, the outcome
 * rolled and the scenario type picked by the game, then the model writes the segment, its
 * options and its summary in one reply. From turn 7 the reply may end the story, and the
 * conclusion (conclusion.ts) follows in the same turn.
 */
import { call, put, race, select } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { normalizeOptions } from '../../../engine/options';
import { rollOutcome } from '../../../engine/outcome';
import { pickText } from '../../../engine/reply';
import { chooseScenarioType } from '../../../engine/scenario';
import type { StoryOption } from '../../../engine/types';
import { REPLY_TOKENS } from '../../llm';
import { gameActions, type ResolvedChoice, type Story } from '../gameSlice';
import { turnInput, turnUse } from '../turnPrompt';
import { canChoose } from '../turn/gameSelectors';
import { policed } from './failurePolicy';
import { RETRY_LIMITS, TRIMMED_CONTEXT_BUDGET, askModel, currentPrompts } from './askModel';
import { concludeStory, conclusionCheck } from './conclusion';
import { selectState } from './flowState';
import { sheetChangesOf } from './sheetChanges';
import { storyStopped } from './storyStops';
import { summaryOfLastSegment } from './summaries';

/** The option picked, or the player's own words: medium risk, neutral, no trait. */
function chosenOption(story: Story, choice: { index: number } | { text: string }) {
  if ('index' in choice) return { option: story.options[choice.index], freeText: false };
  const text = choice.text.trim();
  if (text === '') return { option: undefined, freeText: true };
  const option: StoryOption = { text, risk: 'medium', alignment: 'neutral', traitAlignment: '' };
  return { option, freeText: true };
}

/** The game's rolls for a choice, each told to the store as it is made. */
function* resolveChoice(payload: ReturnType<typeof gameActions.choiceMade>['payload']) {
  const { game } = yield* select(selectState);
  if (!canChoose(game)) return null;
  const { story } = game;
  const { option, freeText } = chosenOption(story, payload);
  if (!option) return null;
  const random = yield* fromContext('random');
  // The turn this choice plays, for every rule and the prompt alike (SPEC.md section 4).
  const turn = story.turnCount + 1;
  // Called as effects, so a replay can hand in a recorded roll (.provide in redux-saga-test-plan).
  const outcome = yield* call(
    rollOutcome,
    {
      risk: option.risk,
      traitConsistency: story.playerStats.traitConsistency,
      turnCount: turn,
      recentOutcomes: story.outcomes,
    },
    random,
  );
  const scenarioType = yield* call(
    chooseScenarioType,
    {
      turnCount: turn,
      playerStats: story.playerStats,
      scenarioHistory: story.scenarioHistory,
      moralChoices: story.moralChoices,
    },
    random,
  );
  // Both rolls are made before the store hears of either: a rule that throws leaves the
  // choices as they were, to be chosen again.
  const rolled = { turn, option, freeText, outcome, outcomesSoFar: [...story.outcomes, outcome] };
  yield* put(gameActions.outcomeRolled(rolled));
  const resolved: ResolvedChoice = { ...rolled, scenarioType };
  yield* put(gameActions.scenarioPicked(resolved));
  return resolved;
}

/** The model writes the choice's segment; from turn 7 it may end the story. */
function* writeSegment(choice: ResolvedChoice): Generator {
  yield* call(summaryOfLastSegment);
  const prompts = yield* currentPrompts();
  const { story } = (yield* select(selectState)).game;
  const input = turnInput(story, story.playerStats, choice);
  const use = turnUse(choice.turn);
  const check = conclusionCheck(choice.turn);
  const reply = yield* call(askModel, prompts[use](input), {
    retries: RETRY_LIMITS.unlimited,
    streamField: 'storySegment',
    replyTokens: REPLY_TOKENS[use],
    trimmed: () => prompts[use]({ ...input, contextBudget: TRIMMED_CONTEXT_BUDGET }),
    accept: check.accept,
  });
  const isFinal = check.ends(reply);
  yield* put(gameActions.segmentReceived({ text: pickText(reply, 'storySegment'), isFinal }));
  yield* call(sheetChangesOf, reply);
  if (!isFinal) yield* put(gameActions.optionsOffered(normalizeOptions(reply.options)));

  // The summary rides in the reply (DESIGN.md: one request per turn); the spec's separate
  // summary request is the fallback, written behind the options unless the story ended.
  const summary = pickText(reply, 'storySummary');
  if (summary !== '') yield* put(gameActions.summaryStored(summary));
  else if (!isFinal) yield* put(gameActions.summaryMissing());
  if (isFinal) yield* call(concludeStory, choice);
}

/** Cancel on the overlay, Stop, Return to Home and Start New Game stop a turn and its waits. */
function* unlessStopped(work: (choice: ResolvedChoice) => Generator, choice: ResolvedChoice) {
  yield* race({ done: call(work, choice), stopped: call(storyStopped) });
}

/**
 * The turn worker: from the choice made to the segment received and its options offered (and,
 * when the reply carried it, its summary); at the end of the story, to the recap. A choice the
 * game cannot take now (a turn under way, a failed turn, an empty free text) is ignored.
 */
export const playTurn = policed(function* playTurn({
  payload,
}: ReturnType<typeof gameActions.choiceMade>) {
  const resolved = yield* call(resolveChoice, payload);
  if (resolved) yield* call(unlessStopped, writeSegment, resolved);
});

/**
 * The worker of Try again and of Write it again, once the slice has taken it (the phase is
 * then `writing`, or `concluding` when the story had ended): the turn's segment for the same
 * choice, outcome and scenario, or the recap.
 */
export const retryTurn = policed(function* retryTurn(
  _action:
    | ReturnType<typeof gameActions.turnRetryRequested>
    | ReturnType<typeof gameActions.rewriteRequested>,
) {
  const { turn, story } = (yield* select(selectState)).game;
  const choice = story.lastChoice;
  if (!choice) return;
  if (turn.phase === 'writing') yield* call(unlessStopped, writeSegment, choice);
  if (turn.phase === 'concluding') yield* call(unlessStopped, concludeStory, choice);
});

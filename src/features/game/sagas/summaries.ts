/**
 * A segment's summary (SPEC.md section 7, the story context). It rides in the segment's own
 * reply (DESIGN.md: one request per turn); when a reply leaves it out, or the player edits the
 * paragraph or their typed action, the spec's separate summary request is written
 * behind the options, and the next turn waits for it. Summaries are only context, so a provider
 * failure here does not fail the turn: the segment's first 40 words stand in.
 */
import { call, put, race, select, take } from 'typed-redux-saga';
import { REPLY_TOKENS, isAbortError } from '../../llm';
import { gameActions, type Story } from '../gameSlice';
import { RETRY_LIMITS, askModel, currentPrompts } from './askModel';
import { policed } from './failurePolicy';
import { selectState } from './flowState';
import { has } from './gameState';
import { LEAVING_THE_STORY } from './storyStops';
import { pickText } from '../../../engine/reply';

/** Words of a segment kept as its summary when the model cannot give one. */
const FALLBACK_SUMMARY_WORDS = 40;
const fallbackSummary = (text: string) =>
  text.split(/\s+/).slice(0, FALLBACK_SUMMARY_WORDS).join(' ');

/**
 * Until the summary being written is no longer wanted: the player leaves the story, or has
 * the paragraph it summarises written again (the slice then drops it: nothing is pending). A
 * rewrite after a Stop replaces no paragraph, and the previous one's summary is still wanted.
 */
function* summaryNoLongerWanted() {
  while (true) {
    const action = yield* take([...LEAVING_THE_STORY, gameActions.rewriteRequested.type]);
    if (!gameActions.rewriteRequested.match(action)) return;
    if ((yield* select(selectState)).game.summary !== 'pending') return;
  }
}

/** The action that led to the latest paragraph, as the log tells it (none for the opening). */
function choiceBeforeLatestParagraph(story: Story): string | undefined {
  const at = story.storyLog.findLastIndex((entry) => entry.kind === 'paragraph');
  const before = story.storyLog[at - 1];
  return before?.kind === 'choice' ? before.text : undefined;
}

function* summarize(story: Story, choiceText: string | undefined, text: string) {
  const prompts = yield* currentPrompts();
  try {
    const summary = yield* call(
      askModel,
      prompts.segmentSummary({
        characterName: story.chosenCharacter,
        choiceText,
        storySegment: text,
      }),
      {
        retries: RETRY_LIMITS.unlimited,
        replyTokens: REPLY_TOKENS.segmentSummary,
        accept: has('storySummary'),
      },
    );
    return pickText(summary, 'storySummary');
  } catch (error) {
    if (isAbortError(error)) throw error;
    return fallbackSummary(text);
  }
}

/** Asks for the latest segment's summary (of the opening when no choice led to it) and stores it. */
export function* writeSummary(story: Story, choiceText: string | undefined, text: string) {
  const summary = yield* summarize(story, choiceText, text);
  yield* put(gameActions.summaryStored(summary));
}

/**
 * The summary worker: the reply left out the latest segment's summary (`summaryMissing`), or
 * the player edited the segment or their action, so it is written behind the options, apart
 * from the turn (the next choice may come while it is written). It stops if the player leaves
 * the story or has the segment written again.
 */
export const summaryFallback = policed(function* summaryFallback(
  _action:
    | ReturnType<typeof gameActions.summaryMissing>
    | ReturnType<typeof gameActions.paragraphEdited>
    | ReturnType<typeof gameActions.choiceEdited>,
) {
  const { summary, story } = (yield* select(selectState)).game;
  if (summary !== 'pending') return;
  // The latest paragraph, and the choice before it as it now reads (edited or not).
  const text = story.previousParagraph;
  try {
    yield* race({
      summarized: call(writeSummary, story, choiceBeforeLatestParagraph(story), text),
      notWanted: call(summaryNoLongerWanted),
    });
  } catch (error) {
    // Nothing else would hear of it, and the next turn waits for this summary.
    if (isAbortError(error)) return;
    yield* put(gameActions.summaryStored(fallbackSummary(text)));
  }
});

/**
 * The last segment's summary, if it is still being written: the next prompt carries it
 * (SPEC.md section 7, the story context). Cancel still stops this wait.
 */
export function* summaryOfLastSegment() {
  while ((yield* select(selectState)).game.summary === 'pending') {
    yield* take(gameActions.summaryStored.type);
  }
}

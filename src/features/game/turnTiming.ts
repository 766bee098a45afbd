/**
 * Performance marks around a turn's client work, from the story reply complete to the next
 * options in the page (budget 4: one frame at turn 100), and around each streamed update, from
 * its action to its words in the page (budget 10: at most 2 ms at turn 100). `npm run bench`
 * reads the measures in Chromium (scripts/bench/turnWork.ts, streamedTurn.ts); anyone can in
 * the browser's Performance panel.
 */
export const TURN_TIMING = {
  /** The model's story reply (the opening or a segment) has arrived in full. */
  replyComplete: 'taleweaver:story-reply-complete',
  /** The options that follow it are in the page. */
  optionsVisible: 'taleweaver:options-visible',
  /** From the one to the other: the measure a turn leaves in the timeline. */
  clientWork: 'taleweaver:turn-client-work',
  /** The narrative so far is about to reach the store (game/segmentStreamed). */
  streamUpdateSent: 'taleweaver:stream-update-sent',
  /**
   * From the update's action to its words in the page: the store, its subscribers, and the
   * text written into the paragraph being written (the page's paint comes after).
   */
  streamUpdate: 'taleweaver:stream-update',
} as const;

/** The page's performance timeline; none where marks are not kept (jsdom). */
function timeline(): Performance | undefined {
  return typeof performance !== 'undefined' && typeof performance.mark === 'function'
    ? performance
    : undefined;
}

export function markStoryReplyComplete(): void {
  timeline()?.mark(TURN_TIMING.replyComplete);
}

/** Marks the options in the page and, after a story reply, measures the work in between. */
export function markOptionsVisible(): void {
  const perf = timeline();
  if (!perf) return;
  const visible = perf.mark(TURN_TIMING.optionsVisible);
  const reply = perf.getEntriesByName(TURN_TIMING.replyComplete, 'mark').at(-1);
  // Options shown without a reply before them (a resumed story) measure nothing.
  if (reply) {
    perf.measure(TURN_TIMING.clientWork, { start: reply.startTime, end: visible.startTime });
  }
  // One measure a turn is all the timeline keeps: marks would pile up over a long story.
  perf.clearMarks(TURN_TIMING.replyComplete);
  perf.clearMarks(TURN_TIMING.optionsVisible);
}

export function markStreamUpdateSent(): void {
  timeline()?.mark(TURN_TIMING.streamUpdateSent);
}

/** Measures the update since its action, once its words are in the paragraph being written. */
export function measureStreamUpdateShown(): void {
  const perf = timeline();
  const sent = perf?.getEntriesByName(TURN_TIMING.streamUpdateSent, 'mark').at(-1);
  if (!perf || !sent) return;
  // Dozens a turn: the timeline keeps the latest (a PerformanceObserver sees every one).
  perf.clearMeasures(TURN_TIMING.streamUpdate);
  perf.measure(TURN_TIMING.streamUpdate, { start: sent.startTime });
  perf.clearMarks(TURN_TIMING.streamUpdateSent);
}

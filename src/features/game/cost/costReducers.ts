/**
 * The story's cost as events change it (storyCost.ts): each request the story makes is counted
 * once its reply is in, with its turn (the opening is turn 0; a turn's summary, rewrites and
 * recap count with it). The game slice takes these in (gameSlice.ts).
 */
import type { Story } from '../gameModel';
import { each, inPhases } from '../turn/phaseReducers';
import { PLAYING_PHASES } from '../turn/turnRules';
import { costAfter, type CountedUsage } from './storyCost';

/** One request's usage, counted for the story; null when its provider reported none. */
function count(story: Story, usage: CountedUsage | null) {
  story.cost = costAfter(story.cost, story.turnCount, usage);
}

export const costReducers = {
  /**
   * A story request's reply is in, with the usage its provider reported (or none: "not
   * reported"), priced where a price is known.
   */
  tokensCounted: inPhases<{ usage: CountedUsage | null }>(
    each(['opening', ...PLAYING_PHASES], ({ story }, { usage }: { usage: CountedUsage | null }) =>
      count(story, usage),
    ),
  ),
};

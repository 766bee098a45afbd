/**
 * The story's cost as events change it (storyCost.ts): each request the story makes is counted
 * once its reply is in, with the turn it was made for (the opening is turn 0; a turn's summary,
 * rewrites and recap count with it, a summary that comes in after the next choice too). The
 * game slice takes these in (gameSlice.ts).
 */
import { each, inPhases } from '../turn/phaseReducers';
import { PLAYING_PHASES } from '../turn/turnRules';
import { costAfter, type CountedUsage } from './storyCost';

/** One request's usage, and the turn it was made for; usage null: its provider reported none. */
interface Counted {
  turn: number;
  usage: CountedUsage | null;
}

export const costReducers = {
  /**
   * A story request's reply is in, with the usage its provider reported (or none: "not
   * reported"), priced where a price is known.
   */
  tokensCounted: inPhases<Counted>(
    each(['opening', ...PLAYING_PHASES], ({ story }, { turn, usage }: Counted) => {
      if (!Number.isSafeInteger(turn) || turn < 0) return;
      story.cost = costAfter(story.cost, turn, usage);
    }),
  ),
};

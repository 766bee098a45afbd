import type { SavedStory } from '../savedStory';

/** How a saved story's time is shown, in the player's locale. */
export const SAVED_TIME_FORMAT: Intl.DateTimeFormatOptions = {
  dateStyle: 'medium',
  timeStyle: 'short',
};

/** The turn a saved story is at (0 for a record that does not say). */
export function storyTurns(story: SavedStory): number {
  const turns = story.game.turnCount;
  return typeof turns === 'number' && Number.isInteger(turns) && turns >= 0 ? turns : 0;
}

import type { IntlShape } from 'react-intl';
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

/** A story kept from another tab's line goes by its character's name, marked as such. */
export function otherTabTitle(intl: IntlShape, name: string): string {
  return intl.formatMessage({ id: 'stories.title.otherTab' }, { name });
}

/** The name a saved story goes by in the list. */
export function storyTitle(intl: IntlShape, story: SavedStory): string {
  return typeof story.branchOf === 'number'
    ? otherTabTitle(intl, story.chosenCharacter)
    : story.chosenCharacter;
}

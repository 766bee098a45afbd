/**
 * The game's events that may change the story itself (gameSlice.ts, `state.story`), listed once:
 * the auto-save wakes on these alone, never on a streamed frame or a wait's tick
 * (stories/sagas/saving.ts). test/features/game/storyEvents.test.ts plays whole games and checks
 * that no other event changes the story.
 */
import type { Action } from '@reduxjs/toolkit';
import { gameActions } from './gameSlice';

const STORY_EVENT_TYPES = new Set<string>(
  [
    gameActions.newGameStarted,
    gameActions.genreChosen,
    gameActions.portraitChosen,
    gameActions.characterNamed,
    gameActions.characterProfileReceived,
    gameActions.openingReceived,
    gameActions.openingSummaryReceived,
    gameActions.outcomeRolled,
    gameActions.scenarioPicked,
    gameActions.segmentReceived,
    gameActions.optionsOffered,
    gameActions.summaryStored,
    gameActions.scoreComputed,
    gameActions.recapReceived,
    gameActions.savedStoryResumed,
    gameActions.rewriteRequested,
    gameActions.paragraphEdited,
    gameActions.choiceEdited,
    gameActions.memoryCorrected,
    gameActions.storyNotePinned,
    gameActions.sheetChanged,
    gameActions.sheetEntryWritten,
    gameActions.sheetEntryRemoved,
    gameActions.loreEntryAdded,
    gameActions.loreEntryChanged,
    gameActions.loreEntryRemoved,
    gameActions.loreEntryRestored,
    gameActions.genreLorebookTaken,
    gameActions.tokensCounted,
    gameActions.illustrationChosen,
  ].map((event) => event.type),
);

/** Whether `action` is one of the game's events that may change the story. */
export const isStoryEvent = (action: Action): boolean => STORY_EVENT_TYPES.has(action.type);

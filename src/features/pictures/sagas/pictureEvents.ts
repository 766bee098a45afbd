/**
 * The events a story's pictures follow (issue 41): named apart from their flows
 * (storyPictures.ts), since the pictures' root (picturesSaga.ts) buffers them while it fetches
 * those flows' code.
 */
import { gameActions } from '../../game';
import { storiesActions } from '../../stories';
import { picturesActions } from '../picturesSlice';

/** What ends a story's pictures' flow: another story, or none. */
export const STORY_CHANGES: string[] = [
  gameActions.newGameStarted.type,
  gameActions.returnedHome.type,
  gameActions.savedStoryResumed.type,
];

/** What asks for a picture, or changes which pictures a story has. */
const PICTURE_EVENTS: string[] = [
  gameActions.openingReceived.type,
  gameActions.recapReceived.type,
  gameActions.illustrationChosen.type,
  gameActions.rewriteRequested.type,
  picturesActions.momentPictureRequested.type,
  picturesActions.pictureRetryRequested.type,
  storiesActions.storyLoaded.type,
  storiesActions.storySavedAsBranch.type,
];

/** Every event a story's pictures follow, in the order they came. */
export const STORY_FLOW_EVENTS: string[] = [...STORY_CHANGES, ...PICTURE_EVENTS];

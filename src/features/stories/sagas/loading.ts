/**
 * Loading a saved story (SPEC.md section 4): the game resumes it at its turn, or opens its
 * ending screen if it was finished.
 */
import { call, put, select } from 'typed-redux-saga';
import { policed } from '../../../shared/failurePolicy';
import { gameActions, selectGameStage } from '../../game';
import { toStorageError } from '../browserDb';
import { DamagedStoryError, getStory } from '../browserPlace';
import { storyOf } from '../storyRecord';
import { storiesActions } from '../storiesSlice';
import { selectState, storiesDb } from './storiesState';

/** From the story chosen in the list to the game resumed, or why not. */
function* loadStory({ payload: id }: ReturnType<typeof storiesActions.loadRequested>) {
  const db = yield* storiesDb();
  const story = yield* call(getStory, db, id);
  const game = story ? storyOf(story) : null;
  if (!story || !game) {
    yield* put(storiesActions.storyLoadFailed(null));
    return;
  }
  yield* put(gameActions.savedStoryResumed(game));
  // The game takes a story only once an API key is in (SPEC.md section 4).
  const stage = selectGameStage(yield* select(selectState));
  if (stage !== 'playing' && stage !== 'endingScreen') {
    yield* put(storiesActions.storyLoadFailed(null));
    return;
  }
  yield* put(
    storiesActions.storyLoaded({
      id,
      walletAddress: story.walletAddress,
      revision: story.revision ?? 0,
      lastSaved: story.lastSaved,
      ...(story.cloud && { cloudId: story.cloud.id }),
    }),
  );
}

/** The load worker under the failure policy: a failure says why (a damaged story is named). */
export const loadSaved = policed(loadStory, (error) => {
  console.error('Loading the story failed', error);
  const reason = error instanceof DamagedStoryError ? 'damaged' : toStorageError(error).reason;
  return storiesActions.storyLoadFailed(reason);
});

/**
 * Loading a saved story (SPEC.md section 4): the game resumes it at its turn, or opens its
 * ending screen if it was finished.
 */
import { call, put, select } from 'typed-redux-saga';
import { gameActions, selectGameStage } from '../../game';
import { storyOf } from '../gameRecord';
import { getStory, toStorageError } from '../storiesDb';
import { storiesActions } from '../storiesSlice';
import { selectState, storiesDb } from './storiesState';

/** The load worker: from the story chosen in the list to the game resumed, or why not. */
export function* loadSaved({ payload: id }: ReturnType<typeof storiesActions.loadRequested>) {
  try {
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
  } catch (error) {
    console.error('Loading the story failed', error);
    yield* put(storiesActions.storyLoadFailed(toStorageError(error).reason));
  }
}

/** Deleting a saved story, once the player has confirmed it in the list. */
import { call, put } from 'typed-redux-saga';
import { policed } from '../../../shared/failurePolicy';
import { toStorageError } from '../browserDb';
import { deleteStory } from '../browserPlace';
import { storiesActions } from '../storiesSlice';
import { storiesDb } from './storiesState';

/**
 * The delete worker: the record goes with its parts and its pictures, in one transaction
 * (browserPlace.ts, deleteRecord), and the list and the notice say so. In the same transaction
 * rather than right after, so that a tab closed in between, or a failed second step, can never
 * leave a story's pictures behind it with nothing to find or delete them by.
 */
export const deleteSaved = policed(
  function* deleteSaved({ payload: id }: ReturnType<typeof storiesActions.deleteConfirmed>) {
    const db = yield* storiesDb();
    yield* call(deleteStory, db, id);
    yield* put(storiesActions.storyDeleted(id));
  },
  (error) => {
    console.error('Deleting the story failed', error);
    return storiesActions.storyDeleteFailed(toStorageError(error).reason);
  },
);

/** Deleting a saved story, once the player has confirmed it in the list. */
import { call, put } from 'typed-redux-saga';
import { deleteStory, toStorageError } from '../storiesDb';
import { storiesActions } from '../storiesSlice';
import { storiesDb } from './storiesState';

/** The delete worker: the record goes, and the list and the notice say so. */
export function* deleteSaved({ payload: id }: ReturnType<typeof storiesActions.deleteConfirmed>) {
  try {
    const db = yield* storiesDb();
    yield* call(deleteStory, db, id);
    yield* put(storiesActions.storyDeleted(id));
  } catch (error) {
    console.error('Deleting the story failed', error);
    yield* put(storiesActions.storyDeleteFailed(toStorageError(error).reason));
  }
}

/** Importing a story: a JSON export read back (storyExport.ts). */
import { call, put, select } from 'typed-redux-saga';
import { saveStory, toStorageError } from '../storiesDb';
import { StoryImportError, parseStoryJson } from '../storyExport';
import { storiesActions } from '../storiesSlice';
import { selectOwner, storiesDb } from './storiesState';

/** The import worker: the file saved as a new story of the current wallet, and the list again. */
export function* importStory({ payload: text }: ReturnType<typeof storiesActions.importRequested>) {
  try {
    const story = parseStoryJson(text);
    const owner = yield* select(selectOwner);
    const db = yield* storiesDb();
    // Without its wallet or id: an import is always a new story of this wallet.
    const result = yield* call(saveStory, db, { ...story, walletAddress: owner }, owner);
    if (!result.saved) {
      yield* put(storiesActions.storyImportFailed('incomplete'));
      return;
    }
    yield* put(storiesActions.storyImported());
    yield* put(storiesActions.savedStoriesRequested());
  } catch (error) {
    const reason = error instanceof StoryImportError ? error.reason : toStorageError(error).reason;
    yield* put(storiesActions.storyImportFailed(reason));
  }
}

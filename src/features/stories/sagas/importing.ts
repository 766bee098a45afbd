/**
 * Importing a story: a JSON export read back (storyExport.ts, fetched with the first import),
 * saved as a new story, then its pictures kept under the new id. A picture that cannot be kept
 * is skipped with its reason (stories/picturesSkipped), never a failed import: the story is
 * saved first, and a picture's failure, even a storage one, is only that picture's.
 */
import { call, put, select } from 'typed-redux-saga';
import { policed } from '../../../shared/failurePolicy';
import { toStorageError } from '../browserDb';
import { saveStory } from '../browserPlace';
import { loadPictureKeeping, loadStoryFiles } from '../storyFiles';
import { type SkippedPicture, StoryImportError } from '../storyImportError';
import { storiesActions } from '../storiesSlice';
import { fromContext } from './sagaContext';
import { selectOwner, storiesDb } from './storiesState';

/** The file saved as a new story of the current wallet, its pictures kept, and the list again. */
function* importFile({ payload: text }: ReturnType<typeof storiesActions.importRequested>) {
  const { parseStoryFile } = yield* call(loadStoryFiles);
  const { story, pictures, skipped } = parseStoryFile(text);
  const owner = yield* select(selectOwner);
  const db = yield* storiesDb();
  const clock = yield* fromContext('clock');
  // Without its wallet or id: an import is always a new story of this wallet.
  const draft = { ...story, walletAddress: owner };
  const result = yield* call(saveStory, db, draft, owner, new Date(clock.now()));
  if (!result.saved) {
    yield* put(storiesActions.storyImportFailed('incomplete'));
    return;
  }
  let notKept: SkippedPicture[] = [];
  if (pictures.length > 0) {
    const { keepImportedPictures } = yield* call(loadPictureKeeping);
    notKept = yield* call(keepImportedPictures, db, result.id, pictures);
  }
  const allSkipped = [...skipped, ...notKept].sort((a, b) => a.index - b.index);
  if (allSkipped.length > 0) {
    yield* put(storiesActions.picturesSkipped({ storyId: result.id, skipped: allSkipped }));
  }
  // A save like any other: the other places take the record just written.
  const outbox = yield* fromContext('storyOutbox');
  yield* call([outbox, outbox.offer], result);
  yield* put(storiesActions.storyImported());
  yield* put(storiesActions.savedStoriesRequested());
}

/** The import worker under the failure policy: a failure says what is wrong with the file. */
export const importStory = policed(importFile, (error) =>
  storiesActions.storyImportFailed(
    error instanceof StoryImportError ? error.reason : toStorageError(error).reason,
  ),
);

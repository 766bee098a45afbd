/**
 * After the leaderboard save (SPEC.md section 4, Saving): once the result is on the leaderboard
 * (saved, or already there from a recent save), the wallet's final stories of that character
 * and ending are deleted.
 */
import { call, put } from 'typed-redux-saga';
import { policed, unexpected } from '../../../shared/failurePolicy';
import type { SaveResultRequest } from '../../leaderboard';
import { deleteFinishedStories } from '../browserPlace';
import { storiesActions } from '../storiesSlice';
import { storiesDb } from './storiesState';

/** The leaderboard's saveGameResult, fulfilled: what the clean-up needs of it. */
export interface ResultOnLeaderboard {
  meta: { arg: { originalArgs: SaveResultRequest } };
}

/** The clean-up worker: the local copies of the result go, and the note says how many. */
export const deleteFinished = policed(
  function* deleteFinished(action: ResultOnLeaderboard) {
    const { address, result } = action.meta.arg.originalArgs;
    const db = yield* storiesDb();
    const ids = yield* call(
      deleteFinishedStories,
      db,
      address,
      result.character_name,
      result.ending_type,
    );
    yield* put(storiesActions.finishedStoriesDeleted(ids));
  },
  // The local copies stay; nothing is lost, and no note is shown.
  () => unexpected(storiesActions.finishedStoriesDeleted([])),
);

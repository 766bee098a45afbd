/**
 * The saved stories' flows (SPEC.md section 4, "Saving"; section 5), one worker each, and the
 * watchers that run them: the auto-save 100 ms after the story last changed and the manual save,
 * one at a time (saving.ts), the list for the current wallet, which follows a wallet change at
 * once (savedList.ts), load (loading.ts), delete (deleting.ts), import (importing.ts), the
 * clean-up after a result reaches the leaderboard (afterLeaderboard.ts), the other tabs
 * (otherTabs.ts), the notices that go by themselves (notices.ts), the browser's promise to keep
 * the stories, asked for with the first save (keeping.ts), and cloud saves and publishing,
 * loaded when first wanted (cloud/cloudLoader.ts). The workers that can fail run under the one
 * failure policy (src/shared/failurePolicy.ts): a failure is told, and the watcher goes on.
 * Each worker takes the action that starts it and returns when its flow ends, so a test runs
 * one with expectSaga and no timeout.
 */
import { buffers, channel } from 'redux-saga';
import {
  call,
  fork,
  select,
  setContext,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import { resultsApi } from '../../leaderboard';
import { storiesActions } from '../storiesSlice';
import { deleteFinished } from './afterLeaderboard';
import { loadCloudWhenWanted } from '../cloud/cloudLoader';
import { deleteSaved } from './deleting';
import { importStory } from './importing';
import { keepStories } from './keeping';
import { loadSaved } from './loading';
import { EXPIRING_NOTICES, expireNotice } from './notices';
import { hearOtherTabs } from './otherTabs';
import { WALLET_CHANGES, followWallet, listSaved } from './savedList';
import { requestSave, saveInTurn, saveWhenStoryChanges, type SaveKind } from './saving';
import { fromContext, type StoriesContext } from './sagaContext';
import { openedOnce } from '../browserDb';
import { selectState } from './storiesState';

/**
 * The watchers, with MyStoriesDB and the other tabs' channel from the saga context (the app's
 * browserStoriesContext, or a test's fake-indexeddb and channel).
 */
export function* storiesSaga() {
  const open = yield* fromContext('openStoriesDb');
  const openTabs = yield* fromContext('openTabChannel');
  // The browser's channel comes with this code's chunk (a promise); a test's is there at once.
  const opening = openTabs();
  let tabs = opening instanceof Promise ? null : opening;
  // The flows below share one MyStoriesDB, opened on first use, and this tab's one channel.
  const shared: Partial<StoriesContext> = {
    openStoriesDb: openedOnce(open),
    openTabChannel: () => tabs,
  };
  yield* setContext(shared);
  const saves = yield* call(channel<SaveKind>, buffers.expanding<SaveKind>());

  yield* fork(saveInTurn, saves);
  yield* fork(saveWhenStoryChanges, saves);
  yield* takeEvery(storiesActions.saveRequested, requestSave, saves, 'manual');
  yield* takeLatest(storiesActions.savedStoriesRequested, listSaved);
  yield* takeEvery(WALLET_CHANGES, followWallet);
  yield* takeLeading(storiesActions.loadRequested, loadSaved);
  yield* takeEvery(storiesActions.deleteConfirmed, deleteSaved);
  yield* takeEvery(storiesActions.importRequested, importStory);
  yield* takeEvery(resultsApi.endpoints.saveGameResult.matchFulfilled, deleteFinished);
  yield* takeEvery(EXPIRING_NOTICES, expireNotice);
  yield* fork(loadCloudWhenWanted);
  yield* fork(keepStories);

  // A list asked for while this code was still loading is served now.
  const { list } = (yield* select(selectState)).stories;
  if (list.status === 'loading') yield* fork(listSaved);

  // Every watcher is listening before the channel is waited for: no action goes unheard.
  if (opening instanceof Promise) tabs = yield* call(() => opening);
  if (tabs) yield* fork(hearOtherTabs, tabs);
}

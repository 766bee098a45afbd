/**
 * The saved stories' flows (SPEC.md section 4, "Saving"; section 5): the auto-save 100 ms after
 * the story last changed, the manual save, the list for the current wallet (which follows a wallet
 * change at once), load, delete, import, and the clean-up after a result reaches the leaderboard.
 * Saves run one at a time, so a story saved for the first time gets one record, never two.
 * A story another tab played on is not overwritten: this tab's line becomes a story of its own,
 * and the other tabs hear of each save at once (storyRevision.ts, tabChannel.ts).
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { buffers, channel, eventChannel, type Channel } from 'redux-saga';
import {
  call,
  debounce,
  delay,
  fork,
  getContext,
  put,
  select,
  setContext,
  take,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'typed-redux-saga';
import { fromContext } from '../../shared/sagaContext';
import {
  gameActions,
  isResumable,
  scoreComputed,
  selectResumableGame,
  type GameState,
  type PlayerStatsState,
} from '../game';
import { resultsApi, type SaveResultRequest } from '../leaderboard';
import { selectIsWalletBusy, selectWalletAddress, walletSlice, type WalletState } from '../wallet';
import { resumableGameOf, storyDraftOf } from './gameRecord';
import { sameWallet, walletOwner } from './savedStory';
import {
  deleteFinishedStories,
  deleteStory,
  getStory,
  listStories,
  openStoriesDb,
  saveStory,
  toStorageError,
  type StorageErrorReason,
  type StoriesDb,
} from './storiesDb';
import { StoryImportError, parseStoryJson } from './storyExport';
import { isFailureNotice, storiesActions, type StoriesState } from './storiesSlice';
import { openTabChannel, type StorySavedMessage, type TabChannel } from './tabChannel';

/** SPEC.md section 9: the auto-save delay. */
export const AUTO_SAVE_DELAY_MS = 100;
/** How long a success notice stays; failures stay until dismissed. */
export const NOTICE_MS = 4000;

interface State {
  game: GameState;
  playerStats: PlayerStatsState;
  wallet: WalletState;
  stories: StoriesState;
}

const selectState = (state: State) => state;
const selectOwner = (state: State) => walletOwner(selectWalletAddress(state));

/** SPEC.md section 4: options, story text, turn count or state changed, or the story start was set. */
const STORY_CHANGES = [
  gameActions.openingReceived,
  gameActions.openingSummaryReceived,
  gameActions.outcomeRolled,
  gameActions.scenarioPicked,
  gameActions.segmentReceived,
  gameActions.summaryStored,
  gameActions.recapReceived,
  scoreComputed,
].map((event) => event.type);

const WALLET_CHANGES = [
  walletSlice.actions.signedIn,
  walletSlice.actions.sessionRestored,
  walletSlice.actions.sessionEnded,
].map((event) => event.type);

/**
 * Opens MyStoriesDB on first use and keeps it. A failed open is tried again next time, and so is
 * a connection that closed: the browser dropped it (site data cleared), or another tab's upgrade
 * asked it to go.
 */
function storiesDatabase(open: () => Promise<StoriesDb>): () => Promise<StoriesDb> {
  let opening: Promise<StoriesDb> | null = null;
  const forget = () => {
    opening = null;
  };
  return () =>
    (opening ??= open().then(
      (db) => {
        db.addEventListener('close', forget);
        db.addEventListener('versionchange', forget);
        return db;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    ));
}

type Database = () => Promise<StoriesDb>;

/** MyStoriesDB, opened by the database the watchers were given (saga context 'storiesDatabase'). */
function* storiesDb() {
  const database = yield* getContext<Database>('storiesDatabase');
  return yield* call(database);
}

// ---- Saving ----

type SaveKind = 'auto' | 'manual';

/** How a save went: done, skipped (nothing to save now), or failed for a reason. */
type SaveOutcome = 'saved' | 'skipped' | StorageErrorReason;

/** The saves, one after another. An auto-save failure is shown once per reason, not each turn. */
function* saveEach(saves: Channel<SaveKind>) {
  let lastAutoOutcome: SaveOutcome = 'saved';
  for (;;) {
    const kind = yield* take(saves);
    const outcome = yield* call(saveCurrentStory, kind === 'manual');
    if (outcome === 'skipped') continue;
    const failed = outcome !== 'saved';
    if (failed && (kind === 'manual' || outcome !== lastAutoOutcome)) {
      yield* put(storiesActions.storySaveFailed(outcome));
    }
    if (kind === 'auto') lastAutoOutcome = outcome;
  }
}

/**
 * Saves the story being played, if it is at a point it can be resumed from. Not while the
 * wallet is signing in: the story would land under 'anonymous' for that moment.
 */
export function* saveCurrentStory(manual: boolean) {
  const state = yield* select(selectState);
  if (!isResumable(state.game) || selectIsWalletBusy(state)) return 'skipped';
  const owner = selectOwner(state);
  const { current, storyGeneration } = state.stories;
  const draft = storyDraftOf(selectResumableGame(state), current);
  try {
    const db = yield* storiesDb();
    const result = yield* call(saveStory, db, draft, owner);
    // A refused story is only logged (SPEC.md section 5).
    if (!result.saved) return 'skipped';
    const { id, revision, lastSaved, splitFrom } = result;
    const saved = { id, walletAddress: owner, revision, lastSaved, manual, storyGeneration };
    yield* put(
      splitFrom === null
        ? storiesActions.storySaved(saved)
        : storiesActions.storySavedAsBranch({ ...saved, from: splitFrom }),
    );
    const message: StorySavedMessage = { type: 'storySaved', id, revision, lastSaved };
    yield* call(tellOtherTabs, message);
    return 'saved';
  } catch (error) {
    console.error('Saving the story failed', error);
    return toStorageError(error).reason;
  }
}

function* requestSave(saves: Channel<SaveKind>, kind: SaveKind) {
  yield* put(saves, kind);
}

// ---- The other tabs ----

function* tellOtherTabs(message: StorySavedMessage) {
  const tabs = yield* getContext<TabChannel | null>('tabChannel');
  try {
    tabs?.post(message);
  } catch (error) {
    // Only the early word is lost: the revision check still keeps both lines.
    console.error('Telling the other tabs of a save failed', error);
  }
}

/** Each save another tab announces; the slice decides whether it concerns this tab's story. */
function* hearOtherTabs(tabs: TabChannel) {
  const heard = eventChannel<StorySavedMessage>((emit) => tabs.listen(emit));
  try {
    for (;;) {
      const { id, revision, lastSaved } = yield* take(heard);
      yield* put(storiesActions.savedInAnotherTab({ id, revision, lastSaved }));
    }
  } finally {
    heard.close();
    tabs.close();
  }
}

// ---- The list, load, delete, import ----

function* listSaved() {
  const owner = yield* select(selectOwner);
  try {
    const db = yield* storiesDb();
    const stories = yield* call(listStories, db, owner);
    yield* put(storiesActions.savedStoriesListed({ owner, stories }));
  } catch (error) {
    console.error('Listing the saved stories failed', error);
    yield* put(storiesActions.savedStoriesFailed(toStorageError(error).reason));
  }
}

/** The list follows the wallet (SPEC.md section 4: it polls; reacting to the event is at once). */
function* followWallet() {
  const state = yield* select(selectState);
  const { status, owner } = state.stories.list;
  if (status === 'idle' || sameWallet(owner, selectOwner(state))) return;
  yield* put(storiesActions.savedStoriesRequested());
}

function* loadSaved({ payload: id }: PayloadAction<number>) {
  try {
    const db = yield* storiesDb();
    const story = yield* call(getStory, db, id);
    const game = story ? resumableGameOf(story) : null;
    if (!story || !game) {
      yield* put(storiesActions.storyLoadFailed(null));
      return;
    }
    yield* put(gameActions.savedStoryResumed(game));
    // The game takes a story only once an API key is in (SPEC.md section 4).
    const { stage } = (yield* select(selectState)).game;
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
      }),
    );
  } catch (error) {
    console.error('Loading the story failed', error);
    yield* put(storiesActions.storyLoadFailed(toStorageError(error).reason));
  }
}

function* deleteSaved({ payload: id }: PayloadAction<number>) {
  try {
    const db = yield* storiesDb();
    yield* call(deleteStory, db, id);
    yield* put(storiesActions.storyDeleted(id));
  } catch (error) {
    console.error('Deleting the story failed', error);
    yield* put(storiesActions.storyDeleteFailed(toStorageError(error).reason));
  }
}

/** A JSON export read back: saved as a new story of the current wallet. */
function* importStory({ payload: text }: PayloadAction<string>) {
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

// ---- After the leaderboard save ----

/**
 * SPEC.md section 4, Saving: once the result is on the leaderboard (saved, or already there
 * from a recent save), the wallet's final stories of that character and ending are deleted.
 */
function* deleteFinished(action: { meta: { arg: { originalArgs: SaveResultRequest } } }) {
  const { address, result } = action.meta.arg.originalArgs;
  try {
    const db = yield* storiesDb();
    const ids = yield* call(
      deleteFinishedStories,
      db,
      address,
      result.character_name,
      result.ending_type,
    );
    yield* put(storiesActions.finishedStoriesDeleted(ids));
  } catch (error) {
    // The local copy stays; nothing is lost.
    console.error('Deleting the local copies of the saved result failed', error);
  }
}

// ---- Notices ----

/** The events whose notice goes by itself; failures stay until the player dismisses them. */
const EXPIRING_NOTICES = [
  storiesActions.storySaved,
  storiesActions.storyDeleted,
  storiesActions.storyLoaded,
  storiesActions.storyImported,
].map((event) => event.type);

function* expireNotice(action: PayloadAction<unknown>) {
  // A quiet auto-save brings no notice of its own.
  if (storiesActions.storySaved.match(action) && !action.payload.manual) return;
  const { notice } = (yield* select(selectState)).stories;
  if (!notice || isFailureNotice(notice)) return;
  yield* delay(NOTICE_MS);
  yield* put(storiesActions.noticeDismissed(notice.seq));
}

/**
 * The watchers. Tests put `openStoriesDb` (a fresh fake-indexeddb) and `openTabChannel` in the
 * saga context; the browser's own IndexedDB and BroadcastChannel are the defaults.
 */
export function* storiesSaga() {
  const open = yield* fromContext('openStoriesDb');
  const openTabs = yield* fromContext('openTabChannel');
  const tabs = (openTabs ?? openTabChannel)();
  yield* setContext({
    storiesDatabase: storiesDatabase(open ?? (() => openStoriesDb())),
    tabChannel: tabs,
  });
  const saves = yield* call(channel<SaveKind>, buffers.expanding<SaveKind>());

  if (tabs) yield* fork(hearOtherTabs, tabs);
  yield* fork(saveEach, saves);
  yield* debounce(AUTO_SAVE_DELAY_MS, STORY_CHANGES, requestSave, saves, 'auto');
  yield* takeEvery(storiesActions.saveRequested, requestSave, saves, 'manual');
  yield* takeLatest(storiesActions.savedStoriesRequested, listSaved);
  yield* takeEvery(WALLET_CHANGES, followWallet);
  yield* takeLeading(storiesActions.loadRequested, loadSaved);
  yield* takeEvery(storiesActions.deleteConfirmed, deleteSaved);
  yield* takeEvery(storiesActions.importRequested, importStory);
  yield* takeEvery(resultsApi.endpoints.saveGameResult.matchFulfilled, deleteFinished);
  yield* takeEvery(EXPIRING_NOTICES, expireNotice);

  // A list asked for while this code was still loading is served now.
  const { list } = (yield* select(selectState)).stories;
  if (list.status === 'loading') yield* fork(listSaved);
}

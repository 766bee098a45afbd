/**
 * Saving (SPEC.md section 4, "Saving"), the one save pipeline: the auto-save 100 ms after the
 * story last changed (woken by the game's story events only), and the manual save. A save builds
 * the story's record once (recordOf), keeps it in the browser first (browserPlace.ts), then
 * hands that same record to the other places through the outbox (the wallet's cloud, when it is
 * open). Saves run one at a time, so a story saved for the first time gets one record, never
 * two. A story another tab played on is not overwritten: this tab's line becomes a story of its
 * own (storyRevision.ts), and the other tabs hear of each save (otherTabs.ts).
 */
import type { Channel } from 'redux-saga';
import { call, put, race, select, take } from 'typed-redux-saga';
import { wait } from '../../../shared/waits';
import { isResumable, isStoryEvent, selectStory, type Story } from '../../game';
import { selectIsWalletBusy } from '../../wallet';
import { toStorageError, type StorageErrorReason } from '../browserDb';
import { keepInBrowser } from '../browserPlace';
import { recordOf } from '../storyRecord';
import { storiesActions } from '../storiesSlice';
import type { StorySavedMessage } from '../tabChannel';
import { tellOtherTabs } from './otherTabs';
import { fromContext } from './sagaContext';
import { selectOwner, selectState, storiesDb } from './storiesState';

/** SPEC.md section 9: the auto-save delay. */
export const AUTO_SAVE_DELAY_MS = 100;

export type SaveKind = 'auto' | 'manual';

/** How a save went: done, skipped (nothing to save now), or failed for a reason. */
export type SaveOutcome = 'saved' | 'skipped' | StorageErrorReason;

/**
 * Saves the story being played, if it is at a point it can be resumed from. Not while the
 * wallet is signing in: the story would land under 'anonymous' for that moment.
 */
export function* saveCurrentStory(manual: boolean) {
  const state = yield* select(selectState);
  if (!isResumable(state.game) || selectIsWalletBusy(state)) return 'skipped';
  const owner = selectOwner(state);
  const { current, storyGeneration } = state.stories;
  // The record is made once, here: every place keeps this one.
  const record = recordOf(selectStory(state), current);
  const clock = yield* fromContext('clock');
  try {
    const db = yield* storiesDb();
    const result = yield* call(keepInBrowser, db, record, owner, new Date(clock.now()));
    // A refused story is only logged (SPEC.md section 5).
    if (!result.saved) return 'skipped';
    const { id, revision, lastSaved, splitFrom, cloudId } = result;
    const saved = {
      id,
      walletAddress: owner,
      revision,
      lastSaved,
      cloudId,
      manual,
      storyGeneration,
    };
    // The other places take the very record written: none reads it back.
    const outbox = yield* fromContext('storyOutbox');
    yield* call([outbox, outbox.offer], result);
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

const failed = (outcome: SaveOutcome): outcome is StorageErrorReason =>
  outcome !== 'saved' && outcome !== 'skipped';

/** The manual save (Save Game): at once, in its turn; a failure always says why. */
export function* manualSave() {
  const outcome = yield* call(saveCurrentStory, true);
  if (failed(outcome)) yield* put(storiesActions.storySaveFailed(outcome));
}

/**
 * The auto-save, once the story has been quiet for AUTO_SAVE_DELAY_MS. A failure is shown once
 * per reason, not each turn: `before` is how the auto-saves went so far, and the worker returns
 * how they went now (a skipped save changes nothing).
 */
export function* autoSave(before: SaveOutcome = 'saved') {
  const outcome = yield* call(saveCurrentStory, false);
  if (outcome === 'skipped') return before;
  if (failed(outcome) && outcome !== before) yield* put(storiesActions.storySaveFailed(outcome));
  return outcome;
}

/** The saves, one after another, until `saves` is closed. */
export function* saveInTurn(saves: Channel<SaveKind>) {
  let autoSaves: SaveOutcome = 'saved';
  for (;;) {
    const kind = yield* take(saves);
    if (kind === 'manual') yield* call(manualSave);
    else autoSaves = yield* call(autoSave, autoSaves);
  }
}

/** Asks for a save: it waits for the ones before it. */
export function* requestSave(saves: Channel<SaveKind>, kind: SaveKind) {
  yield* put(saves, kind);
}

/**
 * Until the story is another than `since`: woken by the game's story events only (a streamed
 * frame is none), then the story selector's result compared.
 */
function* storyChanged(since: Story) {
  for (;;) {
    yield* take(isStoryEvent);
    const story = yield* select(selectStory);
    if (story !== since) return story;
  }
}

/**
 * The auto-save follows the story: once it has changed and then been quiet for
 * AUTO_SAVE_DELAY_MS, a save is asked for. A story just loaded from the list is what was
 * saved: it is taken as the saved one, not saved again.
 */
export function* saveWhenStoryChanges(saves: Channel<SaveKind>) {
  let story = yield* select(selectStory);
  for (;;) {
    story = yield* call(storyChanged, story);
    let loaded = false;
    for (;;) {
      const quietOrNot = yield* race({
        changed: call(storyChanged, story),
        loaded: take(storiesActions.storyLoaded),
        quiet: call(wait, AUTO_SAVE_DELAY_MS),
      });
      if (!quietOrNot.changed) {
        loaded = quietOrNot.loaded !== undefined;
        break;
      }
      story = quietOrNot.changed;
    }
    if (loaded) story = yield* select(selectStory);
    else yield* call(requestSave, saves, 'auto' as const);
  }
}

/**
 * Saving (SPEC.md section 4, "Saving"): the auto-save 100 ms after the story last changed, and
 * the manual save. Saves run one at a time, so a story saved for the first time gets one
 * record, never two. A story another tab played on is not overwritten: this tab's line becomes a
 * story of its own (storyRevision.ts), and the other tabs hear of each save (otherTabs.ts).
 */
import type { Channel } from 'redux-saga';
import { call, put, select, take } from 'typed-redux-saga';
import { gameActions, isResumable, scoreComputed, selectResumableGame } from '../../game';
import { selectIsWalletBusy } from '../../wallet';
import { storyDraftOf } from '../gameRecord';
import { saveStory, toStorageError, type StorageErrorReason } from '../storiesDb';
import { storiesActions } from '../storiesSlice';
import type { StorySavedMessage } from '../tabChannel';
import { tellOtherTabs } from './otherTabs';
import { selectOwner, selectState, storiesDb } from './storiesState';

/** SPEC.md section 9: the auto-save delay. */
export const AUTO_SAVE_DELAY_MS = 100;

/**
 * SPEC.md section 4: options, story text, turn count or state changed, or the story start was
 * set; and the player's own changes (issue 22): a stopped turn, a rewrite, an edit, a corrected
 * memory, the pinned note.
 */
export const STORY_CHANGES = [
  gameActions.openingReceived,
  gameActions.openingSummaryReceived,
  gameActions.outcomeRolled,
  gameActions.scenarioPicked,
  gameActions.segmentReceived,
  gameActions.optionsOffered,
  gameActions.summaryStored,
  gameActions.recapReceived,
  gameActions.writingStopped,
  // Saved as soon as it is asked for: a reload cannot take a rewrite back.
  gameActions.rewriteRequested,
  gameActions.paragraphEdited,
  gameActions.choiceEdited,
  gameActions.memoryCorrected,
  gameActions.storyNotePinned,
  scoreComputed,
].map((event) => event.type);

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

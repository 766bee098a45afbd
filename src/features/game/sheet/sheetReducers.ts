/**
 * The story sheet's events (engine/storySheet.ts): the model's changes, which come with the
 * paragraph they belong to, and the player's, which stand against the model's next reply. The
 * game slice takes these in (gameSlice.ts) and calls `sheetTurnBegan` and `sheetTurnTakenBack`
 * where a paragraph joins the story and where Write it again takes one back.
 */
import {
  SHEET_KINDS,
  applyPlayerChange,
  applySheetChanges,
  sheetName,
  sheetNote,
  type SheetChange,
  type SheetKind,
} from '../../../engine/storySheet';
import type { Story } from '../gameModel';
import { each, inPhases } from '../turn/phaseReducers';
import { PLAYING_PHASES } from '../turn/turnRules';

/** A paragraph joins the story: its reply's changes can be taken back with it from here. */
export function sheetTurnBegan(story: Story): void {
  story.storySheet.beforeLatest = story.storySheet.entries;
}

/** The opening is written anew: the sheet starts again with it. */
export function sheetStarted(story: Story): void {
  story.storySheet = { entries: [], beforeLatest: [] };
}

/** Write it again took the latest paragraph back: its reply's changes go with it. */
export function sheetTurnTakenBack(story: Story): void {
  story.storySheet.entries = story.storySheet.beforeLatest;
}

/** An entry the player names: its kind, and its name as the sheet keeps names. */
export interface SheetEntryRef {
  kind: SheetKind;
  name: string;
}

/** The player's change to the sheet, made to the sheet and to the one a rewrite goes back to. */
function playerChange(story: Story, change: SheetChange) {
  if (!SHEET_KINDS.includes(change.kind) || change.name === '') return;
  const { entries, beforeLatest } = story.storySheet;
  story.storySheet = {
    entries: applyPlayerChange(entries, change, story.turnCount),
    beforeLatest: applyPlayerChange(beforeLatest, change, story.turnCount),
  };
}

export const sheetReducers = {
  /**
   * The model's changes to the sheet, from the reply that just gave the opening or the latest
   * paragraph (read by engine/storySheet.ts readSheetChanges).
   */
  sheetChanged: inPhases<{ changes: SheetChange[] }>(
    each(['opening', 'writing', 'concluding'], ({ story }, { changes }) => {
      story.storySheet.entries = applySheetChanges(
        story.storySheet.entries,
        changes,
        story.turnCount,
      );
    }),
  ),
  /** The player adds an entry or corrects its note; the next prompt tells their version. */
  sheetEntryWritten: inPhases<SheetEntryRef & { note: string }>(
    each(PLAYING_PHASES, ({ story }, entry: SheetEntryRef & { note: string }) => {
      const note = sheetNote(entry.note);
      playerChange(story, { op: 'add', kind: entry.kind, name: sheetName(entry.name), note });
    }),
  ),
  /** The player removes an entry: it is no longer told. */
  sheetEntryRemoved: inPhases<SheetEntryRef>(
    each(PLAYING_PHASES, ({ story }, entry: SheetEntryRef) => {
      playerChange(story, {
        op: 'remove',
        kind: entry.kind,
        name: sheetName(entry.name),
        note: '',
      });
    }),
  ),
};

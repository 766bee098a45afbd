/**
 * The story sheet as it arrives (engine/storySheet.ts): a reply's `sheetChanges`, and the entries
 * a saved or imported story holds, read as far as they can be: a bad change or entry is dropped or
 * cut, never a failed turn or a failed load.
 */
import { isRecord } from './guards';
import {
  SHEET_CHANGES_PER_REPLY,
  SHEET_KINDS,
  SHEET_MAX_ENTRIES,
  SHEET_OPS,
  indexOf,
  sameName,
  sheetName,
  sheetNote,
  type SheetChange,
  type SheetEntry,
} from './storySheet';

const oneOf = <T extends string>(values: readonly T[], value: unknown): T | null =>
  typeof value === 'string' && (values as readonly string[]).includes(value.trim().toLowerCase())
    ? (value.trim().toLowerCase() as T)
    : null;

/**
 * A reply's `sheetChanges`, as far as they can be read: unknown kinds and ops, missing names and
 * anything not an object are dropped, notes cut, a second change to the same entry dropped, and
 * at most SHEET_CHANGES_PER_REPLY kept. Anything but a list is no change.
 */
export function readSheetChanges(value: unknown): SheetChange[] {
  if (!Array.isArray(value)) return [];
  const changes: SheetChange[] = [];
  for (const item of value) {
    if (changes.length === SHEET_CHANGES_PER_REPLY) break;
    if (!isRecord(item)) continue;
    const op = oneOf(SHEET_OPS, item.op);
    const kind = oneOf(SHEET_KINDS, item.kind);
    const name = typeof item.name === 'string' ? sheetName(item.name) : '';
    if (!op || !kind || name === '') continue;
    if (changes.some((change) => change.kind === kind && sameName(change.name, name))) continue;
    const note = typeof item.note === 'string' ? sheetNote(item.note) : '';
    changes.push({ op, kind, name, note });
  }
  return changes;
}

const isTurn = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * Entries as a saved story holds them, as far as they can be read (a hand-edited or imported
 * file included): unreadable ones dropped, names and notes cut, a second entry of one name
 * dropped. Anything but a list is an empty sheet (a save from before the sheet).
 */
export function readSheetEntries(value: unknown): SheetEntry[] {
  if (!Array.isArray(value)) return [];
  const entries: SheetEntry[] = [];
  for (const item of value) {
    if (entries.length === SHEET_MAX_ENTRIES) break;
    if (!isRecord(item)) continue;
    const kind = oneOf(SHEET_KINDS, item.kind);
    const name = typeof item.name === 'string' ? sheetName(item.name) : '';
    if (!kind || name === '' || indexOf(entries, kind, name) !== -1) continue;
    entries.push({
      kind,
      name,
      note: typeof item.note === 'string' ? sheetNote(item.note) : '',
      closed: item.closed === true && kind === 'thread',
      changedIn: isTurn(item.changedIn) ? item.changedIn : 0,
      playerIn: isTurn(item.playerIn) ? item.playerIn : null,
    });
  }
  return entries;
}

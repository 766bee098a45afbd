// Two tabs, or two devices, on one story: no paragraph a player saw may be lost without a word.
// Each write of a saved story gives it a new revision. One rule for every place a story is kept
// (`conflictOf`): a save overwrites the place's copy only while it is still the revision the save
// was made on; once another tab or device has saved it since, the newer stays, and this save's
// line is kept as a copy the player can open (a branch in the browser, a copy in the cloud), and
// the player is told. No I/O here: browserPlace.ts applies the rule inside the transaction that
// writes; the cloud's save_story applies it on the server, and the cloud's place acts on its
// answer.
import { type RecordStamp, type SavedStory, sameWallet } from './savedStory';

export type { RecordStamp } from './savedStory';

/** A record as the write finds it in the store. */
export interface StoredStamp extends RecordStamp {
  walletAddress: string;
  branchOf: number | null;
}

/** Where a save goes. */
export type SaveTarget =
  /** A new record: a new story, or another wallet's story saved as this wallet's copy. */
  | { kind: 'new' }
  /** The record this tab plays, at its next revision. */
  | { kind: 'update'; id: number; revision: number; branchOf: number | null }
  /** A new record for this tab's line: another tab has saved the story since this tab did. */
  | { kind: 'branch'; from: number };

/**
 * How a save stands to the place's copy of the story: `none`, the copy is the one the save was
 * made on (or the story is new there); `gone`, the place had it and it was deleted since (this
 * save is the only copy left: it is written again); `movedOn`, another tab or device saved it
 * since (the newer stays; this save is kept as a copy).
 */
export type Conflict = 'none' | 'gone' | 'movedOn';

/**
 * The one conflict rule. `basedOn` is what the save was made on (undefined for a story new to
 * the place), `stored` the place's copy now (undefined when it has none), compared by `same`.
 */
export function conflictOf<Stamp>(
  basedOn: Stamp | undefined,
  stored: Stamp | undefined,
  same: (a: Stamp, b: Stamp) => boolean,
): Conflict {
  if (stored === undefined) return basedOn === undefined ? 'none' : 'gone';
  return basedOn !== undefined && same(stored, basedOn) ? 'none' : 'movedOn';
}

/** The revision a record gets when it is first written. */
export const FIRST_REVISION = 1;

/** A stored record's stamp; records saved before there were revisions read as revision 0. */
export function storedStampOf(
  record: Pick<SavedStory, 'walletAddress' | 'lastSaved' | 'revision' | 'branchOf'>,
): StoredStamp {
  return {
    walletAddress: record.walletAddress,
    lastSaved: record.lastSaved,
    revision: record.revision ?? 0,
    branchOf: record.branchOf ?? null,
  };
}

export function sameStamp(a: RecordStamp, b: RecordStamp): boolean {
  return a.revision === b.revision && a.lastSaved === b.lastSaved;
}

/**
 * Where a save of the story `wanted` (the record this tab plays and the stamp it last saw; null
 * for a story never saved, or another wallet's) goes, given the record as stored now.
 */
export function chooseSaveTarget(
  wanted: { id: number; basedOn: RecordStamp | undefined } | null,
  stored: StoredStamp | undefined,
  owner: string,
): SaveTarget {
  if (!wanted) return { kind: 'new' };
  // Never overwrite a record that belongs to another wallet (SPEC.md section 5).
  if (stored && !sameWallet(stored.walletAddress, owner)) return { kind: 'new' };
  // A save that cannot say what it was based on is treated as having missed the other writes.
  const basedOn = wanted.basedOn ?? { revision: -1, lastSaved: '' };
  const conflict = conflictOf<RecordStamp>(basedOn, stored, sameStamp);
  // Deleted in another tab while this one played on: this tab's line is the only copy left.
  if (conflict === 'gone' || !stored) {
    return {
      kind: 'update',
      id: wanted.id,
      revision: (wanted.basedOn?.revision ?? 0) + 1,
      branchOf: null,
    };
  }
  if (conflict === 'movedOn') return { kind: 'branch', from: wanted.id };
  return {
    kind: 'update',
    id: wanted.id,
    revision: stored.revision + 1,
    branchOf: stored.branchOf,
  };
}

/**
 * Whether another tab's save of record `saved.id` means the story this tab plays has moved on
 * without it: it is this tab's record, and not the write this tab last saw.
 */
export function movedOnElsewhere(
  current: ({ id: number } & RecordStamp) | null,
  saved: { id: number } & RecordStamp,
): boolean {
  return current !== null && current.id === saved.id && !sameStamp(current, saved);
}

// Two tabs on one story: no paragraph a player saw may be lost without a word. Each write of a
// saved story gives it a new revision. A tab overwrites the record only while it is still the
// revision this tab last saved or loaded; once another tab has saved it since, this tab's line is
// kept as a new story, a branch, and the player is told. No I/O here: storiesDb applies the
// choice inside the transaction that writes.
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
  // Deleted in another tab while this one played on: this tab's line is the only copy left.
  if (!stored) {
    return {
      kind: 'update',
      id: wanted.id,
      revision: (wanted.basedOn?.revision ?? 0) + 1,
      branchOf: null,
    };
  }
  // Never overwrite a record that belongs to another wallet (SPEC.md section 5).
  if (!sameWallet(stored.walletAddress, owner)) return { kind: 'new' };
  // A save that cannot say what it was based on is treated as having missed the other writes.
  if (!wanted.basedOn || !sameStamp(stored, wanted.basedOn)) {
    return { kind: 'branch', from: wanted.id };
  }
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

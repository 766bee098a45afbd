/**
 * The story sheet: what the story has established, kept by the model and corrected by the player
 * (issue 40): the people met and how they stand, the items held, the places known, the open
 * threads and the hero's conditions. Every story reply may carry `sheetChanges`; they are read
 * here as leniently as every other optional field (a bad change is dropped or cut, never a failed
 * turn), and the sheet is told in every story prompt within a budget of its own, the entries the
 * story has left longest first to go.
 */
import { isRecord } from './guards';

export const SHEET_KINDS = ['person', 'item', 'place', 'thread', 'condition'] as const;
export type SheetKind = (typeof SHEET_KINDS)[number];

export const SHEET_OPS = ['add', 'update', 'remove'] as const;
export type SheetOp = (typeof SHEET_OPS)[number];

/** One change a reply (or the player) makes to the sheet. */
export interface SheetChange {
  op: SheetOp;
  kind: SheetKind;
  name: string;
  note: string;
}

export interface SheetEntry {
  kind: SheetKind;
  name: string;
  /** How they stand, what it does, what is open: about 20 words. */
  note: string;
  /** A thread the story has closed: kept, told last, the first to go when the sheet is full. */
  closed: boolean;
  /** The turn it last changed (0: the opening). */
  changedIn: number;
  /**
   * The turn the player last wrote it in, if they did: the model's reply to that turn's choice
   * does not change it (its prompt already told the player's version), later ones may.
   */
  playerIn: number | null;
}

/** A name, at most. */
export const SHEET_NAME_MAX_CHARS = 60;
/** A note, at most: about 20 words, cut at a word where it can be. */
export const SHEET_NOTE_MAX_WORDS = 20;
export const SHEET_NOTE_MAX_CHARS = 160;
/** Changes read from one reply, at most; the rest are dropped. */
export const SHEET_CHANGES_PER_REPLY = 12;
/** Entries kept, at most: past it, the closed threads and the longest-untouched entries go. */
export const SHEET_MAX_ENTRIES = 80;

/** A person the story has killed: their note says so, in either language. */
const DEAD = /^\s*(dead|died|deceased|killed|사망|죽음|죽었|숨졌)/i;

export const isDead = (entry: Pick<SheetEntry, 'kind' | 'note'>): boolean =>
  entry.kind === 'person' && DEAD.test(entry.note);

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A note cut to about 20 words and SHEET_NOTE_MAX_CHARS, with an ellipsis when cut. */
export function sheetNote(text: string): string {
  const words = clean(text)
    .split(' ')
    .filter((word) => word !== '');
  let note = words.slice(0, SHEET_NOTE_MAX_WORDS).join(' ');
  if (note.length > SHEET_NOTE_MAX_CHARS) {
    const cut = note.slice(0, SHEET_NOTE_MAX_CHARS);
    const space = cut.lastIndexOf(' ');
    note = space > SHEET_NOTE_MAX_CHARS / 2 ? cut.slice(0, space) : cut;
  }
  return note.length < words.join(' ').length ? `${note}...` : note;
}

/** A name as the sheet keeps it, or '' when there is none to keep. */
export function sheetName(text: string): string {
  return clean(text).slice(0, SHEET_NAME_MAX_CHARS).trim();
}

const oneOf = <T extends string>(values: readonly T[], value: unknown): T | null =>
  typeof value === 'string' && (values as readonly string[]).includes(value.trim().toLowerCase())
    ? (value.trim().toLowerCase() as T)
    : null;

/** Two names are one entry's when they match but for case and spacing. */
export const sameName = (a: string, b: string): boolean =>
  clean(a).toLowerCase() === clean(b).toLowerCase();

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

const indexOf = (entries: readonly SheetEntry[], kind: SheetKind, name: string) =>
  entries.findIndex((entry) => entry.kind === kind && sameName(entry.name, name));

/**
 * The sheet after a reply's `changes` for `turn`: an add or update writes the entry (an update
 * of an unknown entry adds it, an add of a known one updates it, and an empty note keeps the old
 * one); a remove closes a thread and drops anything else. An entry the player wrote this turn or
 * the one before is the player's: the reply does not change it.
 */
export function applySheetChanges(
  entries: readonly SheetEntry[],
  changes: readonly SheetChange[],
  turn: number,
): SheetEntry[] {
  const sheet = [...entries];
  for (const { op, kind, name, note } of changes) {
    const at = indexOf(sheet, kind, name);
    const entry = sheet[at];
    if (entry && entry.playerIn !== null && turn <= entry.playerIn + 1) continue;
    if (op === 'remove') {
      if (!entry) continue;
      if (kind === 'thread') sheet[at] = { ...entry, closed: true, changedIn: turn };
      else sheet.splice(at, 1);
    } else if (entry) {
      sheet[at] = { ...entry, note: note || entry.note, closed: false, changedIn: turn };
    } else {
      sheet.push({ kind, name, note, closed: false, changedIn: turn, playerIn: null });
    }
  }
  return keepWithin(sheet, SHEET_MAX_ENTRIES, () => 0);
}

/**
 * The sheet after the player's own change in `turn`: written as they wrote it (a remove drops the
 * entry outright, a thread too), and theirs against the model's next reply.
 */
export function applyPlayerChange(
  entries: readonly SheetEntry[],
  { op, kind, name, note }: SheetChange,
  turn: number,
): SheetEntry[] {
  const sheet = [...entries];
  const at = indexOf(sheet, kind, name);
  if (op === 'remove') {
    if (at !== -1) sheet.splice(at, 1);
    return sheet;
  }
  const written = { kind, name, note, closed: false, changedIn: turn, playerIn: turn };
  if (at === -1) sheet.push(written);
  else sheet[at] = { ...sheet[at]!, note, changedIn: turn, playerIn: turn };
  return keepWithin(sheet, SHEET_MAX_ENTRIES, () => 0);
}

/**
 * The turn the story last touched an entry: its last change, or the last paragraph naming it
 * (`paragraphs[t]` is turn t's; the opening is turn 0).
 */
export function lastMention(entry: SheetEntry, paragraphs: readonly string[]): number {
  const name = entry.name.toLowerCase();
  for (let turn = paragraphs.length - 1; turn > entry.changedIn; turn -= 1) {
    if (paragraphs[turn]!.toLowerCase().includes(name)) return turn;
  }
  return entry.changedIn;
}

/** The order the sheet is told and shown in: by kind, open threads before closed ones. */
export function sheetOrder(entries: readonly SheetEntry[]): SheetEntry[] {
  const rank = (entry: SheetEntry) => SHEET_KINDS.indexOf(entry.kind) * 2 + (entry.closed ? 1 : 0);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
}

/**
 * At most `count` entries: past it, the closed threads go first, then the entries `recency` says
 * the story left longest ago (the older of two equals first).
 */
function keepWithin(
  entries: SheetEntry[],
  count: number,
  recency: (entry: SheetEntry) => number,
): SheetEntry[] {
  if (entries.length <= count) return entries;
  const goFirst = entries
    .map((entry, index) => ({ entry, index, seen: Math.max(entry.changedIn, recency(entry)) }))
    .sort(
      (a, b) =>
        Number(b.entry.closed) - Number(a.entry.closed) || a.seen - b.seen || a.index - b.index,
    )
    .slice(0, entries.length - count)
    .map(({ entry }) => entry);
  return entries.filter((entry) => !goFirst.includes(entry));
}

/**
 * The entries a story prompt tells, in sheetOrder, within `budget` tokens as `cost` estimates
 * them: when the whole sheet does not fit, the closed threads go first, then the entries the
 * story has left longest (lastMention over `paragraphs`).
 */
export function sheetToTell(
  entries: readonly SheetEntry[],
  paragraphs: readonly string[],
  budget: number,
  cost: (entry: SheetEntry) => number,
): SheetEntry[] {
  const ranked = [...entries]
    .map((entry, index) => ({ entry, index, seen: lastMention(entry, paragraphs) }))
    .sort(
      (a, b) =>
        Number(a.entry.closed) - Number(b.entry.closed) || b.seen - a.seen || a.index - b.index,
    );
  const told = new Set<SheetEntry>();
  let spent = 0;
  for (const { entry } of ranked) {
    const price = cost(entry);
    if (spent + price > budget) continue;
    spent += price;
    told.add(entry);
  }
  return sheetOrder(entries.filter((entry) => told.has(entry)));
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

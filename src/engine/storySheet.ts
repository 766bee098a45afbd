/**
 * The story sheet: what the story has established, kept by the model and corrected by the player
 * (issue 40): the people met and how they stand, the items held, the places known, the open
 * threads and the hero's conditions, and how a reply's or the player's changes make it. Every
 * story reply may carry `sheetChanges`, read as leniently as every other optional field
 * (sheetReading.ts); every story prompt tells the sheet within a budget of its own
 * (sheetTelling.ts). Three modules, so the game's store carries only this one.
 */
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

/** Two names are one entry's when they match but for case and spacing. */
export const sameName = (a: string, b: string): boolean =>
  clean(a).toLowerCase() === clean(b).toLowerCase();

export const indexOf = (entries: readonly SheetEntry[], kind: SheetKind, name: string) =>
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
  return keepWithin(sheet, SHEET_MAX_ENTRIES);
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
  return keepWithin(sheet, SHEET_MAX_ENTRIES);
}

/**
 * At most `count` entries: past it, the closed threads go first, then the entries changed
 * longest ago (the older of two equals first).
 */
function keepWithin(entries: SheetEntry[], count: number): SheetEntry[] {
  if (entries.length <= count) return entries;
  const goFirst = entries
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        Number(b.entry.closed) - Number(a.entry.closed) ||
        a.entry.changedIn - b.entry.changedIn ||
        a.index - b.index,
    )
    .slice(0, entries.length - count)
    .map(({ entry }) => entry);
  return entries.filter((entry) => !goFirst.includes(entry));
}

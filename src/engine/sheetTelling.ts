/**
 * What a story prompt tells of the story sheet (engine/storySheet.ts), within a budget of its own:
 * when the whole sheet does not fit, the closed threads go first, then the entries the story has
 * left longest.
 */
import { SHEET_KINDS, type SheetEntry } from './storySheet';

/**
 * The turn the story last touched an entry: its last change, or the last of the story's `turns`
 * paragraphs naming it (`lowered(t)` is turn t's, lower-cased; the opening is turn 0).
 */
function lastMention(entry: SheetEntry, turns: number, lowered: (turn: number) => string): number {
  const name = entry.name.toLowerCase();
  for (let turn = turns - 1; turn > entry.changedIn; turn -= 1) {
    if (lowered(turn).includes(name)) return turn;
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
  const prices = new Map(entries.map((entry) => [entry, cost(entry)]));
  // Most turns the whole sheet fits, and the story need not be read for it.
  if ([...prices.values()].reduce((sum, price) => sum + price, 0) <= budget) {
    return sheetOrder(entries);
  }
  // Each paragraph lower-cased once, not once for every entry looking for its name in it.
  const loweredAt: string[] = [];
  const lowered = (turn: number) => (loweredAt[turn] ??= paragraphs[turn]!.toLowerCase());
  const ranked = [...entries]
    .map((entry, index) => ({
      entry,
      index,
      seen: lastMention(entry, paragraphs.length, lowered),
    }))
    .sort(
      (a, b) =>
        Number(a.entry.closed) - Number(b.entry.closed) || b.seen - a.seen || a.index - b.index,
    );
  const told = new Set<SheetEntry>();
  let spent = 0;
  for (const { entry } of ranked) {
    const price = prices.get(entry)!;
    if (spent + price > budget) continue;
    spent += price;
    told.add(entry);
  }
  return sheetOrder(entries.filter((entry) => told.has(entry)));
}

/**
 * A lorebook's entries as the game keeps them (issue 40, part 2): their shape, their limits, and
 * the check every entry must pass that the game's events carry, a save holds or the settings
 * keep. Apart from the
 * rest of the lorebook (lorebook.ts) because the store holds entries from the first screen on:
 * this is all of it the always-loaded code needs. Pure: no I/O.
 */
import { isRecord } from './guards';

/** One entry of a story's lorebook, as the player wrote it. */
export interface LoreEntry {
  /** Unique within its lorebook; made when the entry is added. */
  id: string;
  name: string;
  /** Words that bring the entry into a prompt when the story mentions one (loreMentions.ts). */
  keywords: string[];
  /** What the model is told, at most LORE_TEXT_MAX_CHARS. */
  text: string;
  /** Told in every prompt, the opening's too (at most LORE_ALWAYS_MAX entries). */
  always: boolean;
}

/** The limit: an entry's text stays short enough to be told whole. */
export const LORE_TEXT_MAX_CHARS = 500;
export const LORE_NAME_MAX_CHARS = 60;
/** "A few keywords": enough for a name, its nicknames and its other language's spelling. */
export const LORE_KEYWORDS_MAX = 10;
export const LORE_KEYWORD_MAX_CHARS = 40;
/** Entries told in every prompt share its room with the rest: at most three of them. */
export const LORE_ALWAYS_MAX = 3;
/**
 * A story's lorebook is saved with it (IndexedDB, the wallet's cloud) and may be kept with a
 * genre in the browser's settings: at most this many entries, about 30 KB at the very most.
 */
export const LOREBOOK_MAX_ENTRIES = 40;
/** A text's length in characters, a surrogate pair (an emoji) counted once. */
const lengthOf = (text: string) => Array.from(text).length;

const filled = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.trim() !== '' && lengthOf(value) <= max;

/**
 * An entry as the game keeps it: every field of its type and within the limits. What the
 * game's events carry must be one (lorebookReducers.ts): an entry past a limit is refused
 * whole, never half taken.
 */
export function isLoreEntry(value: unknown): value is LoreEntry {
  if (!isRecord(value)) return false;
  const { id, name, keywords, text, always } = value;
  return (
    filled(id, 64) &&
    filled(name, LORE_NAME_MAX_CHARS) &&
    filled(text, LORE_TEXT_MAX_CHARS) &&
    typeof always === 'boolean' &&
    Array.isArray(keywords) &&
    keywords.length <= LORE_KEYWORDS_MAX &&
    keywords.every((keyword) => filled(keyword, LORE_KEYWORD_MAX_CHARS))
  );
}

/** An entry's own fields, nothing else an event or a record may have carried with them. */
export const copyOfEntry = ({ id, name, keywords, text, always }: LoreEntry): LoreEntry => ({
  id,
  name,
  keywords: [...keywords],
  text,
  always,
});

/**
 * A lorebook as the game keeps it, from a save, an imported file or the settings: what is not
 * an entry within the limits is dropped (never a failed load), each id unique (a repeated one
 * becomes `entry-N`), at most LOREBOOK_MAX_ENTRIES, and only the first LORE_ALWAYS_MAX
 * entries marked always keep the mark.
 */
export function checkedLorebook(value: unknown): LoreEntry[] {
  const entries = Array.isArray(value) ? value.filter(isLoreEntry) : [];
  const ids = new Set<string>();
  let always = 0;
  return entries.slice(0, LOREBOOK_MAX_ENTRIES).map((entry) => {
    let { id } = entry;
    for (let n = 1; ids.has(id); n += 1) id = `entry-${n}`;
    ids.add(id);
    const marked = entry.always && always < LORE_ALWAYS_MAX;
    if (marked) always += 1;
    return { ...copyOfEntry(entry), id, always: marked };
  });
}

/** How many entries of `lorebook` are told in every prompt. */
export const alwaysCount = (lorebook: readonly LoreEntry[]) =>
  lorebook.filter((entry) => entry.always).length;

/**
 * A lorebook read from outside (a save, an imported file: parseStory) and keywords as the
 * player types them (the panel's form): cut to the limits, never refused for their length.
 * Pure: no I/O.
 */
import { isRecord } from './guards';
import {
  LORE_KEYWORDS_MAX,
  LORE_KEYWORD_MAX_CHARS,
  LORE_NAME_MAX_CHARS,
  LORE_TEXT_MAX_CHARS,
  asLorebook,
  type LoreEntry,
} from './loreEntries';

const oneLine = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** At most `max` characters, never half a character (a surrogate pair stays whole). */
const firstChars = (text: string, max: number) => Array.from(text).slice(0, max).join('');

/**
 * Keywords as the player means them: one line each, NFC (so a Hangul word typed on another
 * system matches), within the limits, the same keyword (ignoring case) once. A string is read
 * as the form's comma-separated list.
 */
export function keywordsOf(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(/[,，、]/) : value;
  if (!Array.isArray(list)) return [];
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const keyword = firstChars(oneLine(item), LORE_KEYWORD_MAX_CHARS).trim();
    const key = keyword.toLowerCase();
    if (keyword === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(keyword);
    if (kept.length === LORE_KEYWORDS_MAX) break;
  }
  return kept;
}

/**
 * An entry read from outside (a save, an imported file) cut to the limits, or null when it has
 * no name or no text: never refused for its length. Its id is taken as it is, or '' (the
 * lorebook's reader gives each entry a unique one).
 */
export function loreEntryOf(value: unknown): LoreEntry | null {
  if (!isRecord(value)) return null;
  const text = typeof value.text === 'string' ? value.text.normalize('NFC').trim() : '';
  const name = typeof value.name === 'string' ? oneLine(value.name) : '';
  const entry = {
    id: typeof value.id === 'string' ? value.id.slice(0, 64).trim() : '',
    name: firstChars(name, LORE_NAME_MAX_CHARS).trim(),
    keywords: keywordsOf(value.keywords),
    text: firstChars(text, LORE_TEXT_MAX_CHARS).trim(),
    always: value.always === true,
  };
  return entry.name === '' || entry.text === '' ? null : entry;
}

/**
 * A lorebook read from a save or an imported file (parseStory): what is no entry dropped, the
 * rest cut to the limits, as one lorebook (asLorebook).
 */
export const readLorebook = (value: unknown): LoreEntry[] =>
  asLorebook(
    Array.isArray(value)
      ? value.map(loreEntryOf).filter((entry): entry is LoreEntry => entry !== null)
      : [],
  );

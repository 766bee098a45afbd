/**
 * The lorebook a player writes (issue 40, part 2; DESIGN.md, "Memory that holds"): entries of a
 * name, a few keywords and a text (people, places, factions, rules of the world), told to the
 * model when the story mentions their keywords, or always when the player says so. Which
 * entries a prompt carries is decided here, for the prompt and for what the play screen shows
 * of it alike; the entries themselves (and reading them from a save) are loreEntries.ts's,
 * and finding a keyword in a text loreMentions.ts's, both exported from here too. Pure: no I/O, no randomness; tokens are counted by the estimator passed in.
 */
import { LORE_KEYWORDS_MAX, LORE_KEYWORD_MAX_CHARS, type LoreEntry } from './loreEntries';
import { keywordMatcher } from './loreMentions';

export * from './loreEntries';
export { isMentioned, keywordMatcher } from './loreMentions';

/** An entry as the prompt carries it: the last one may be cut short to fit the share. */
export interface ToldLoreEntry extends LoreEntry {
  shortened: boolean;
}

/** Counts a text's tokens, as the prompts count them (src/features/llm/tokens.ts). */
export type TokenEstimate = (text: string) => number;

/**
 * The lorebook's own share of a prompt, by estimate: three English entries of the longest
 * allowed fit whole, and one Korean one (a Hangul syllable counts about a token).
 */
export const LOREBOOK_TOKEN_BUDGET = 500;
/** An entry that would overflow the share is cut to the room left, if at least this is left. */
export const LORE_MIN_CUT_TOKENS = 40;
/** What an entry costs beyond its line: the list's dash and the line break. */
const LINE_OVERHEAD_TOKENS = 2;

const ELLIPSIS = '…';

// ---- Keywords as the player writes them ----

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

// ---- Which entries a prompt carries ----

/**
 * The line an entry is counted as in a prompt, "name: text": a prompt may word it otherwise,
 * in a few tokens more or less.
 */
export const loreEntryLine = (entry: Pick<LoreEntry, 'name' | 'text'>) =>
  `${entry.name}: ${entry.text}`;

/** What an entry costs of the lorebook's share. */
export const loreEntryTokens = (entry: Pick<LoreEntry, 'name' | 'text'>, estimate: TokenEstimate) =>
  estimate(loreEntryLine(entry)) + LINE_OVERHEAD_TOKENS;

/**
 * `entry` cut, at a word where one is near, so that it costs at most `room` tokens, marked with
 * an ellipsis; null if not even its first word fits.
 */
function cutToFit(entry: LoreEntry, room: number, estimate: TokenEstimate): ToldLoreEntry | null {
  const chars = Array.from(entry.text);
  const fits = (count: number) =>
    loreEntryTokens(
      { name: entry.name, text: chars.slice(0, count).join('') + ELLIPSIS },
      estimate,
    ) <= room;
  // The longest start that fits (the cost grows with the text).
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  const start = chars.slice(0, low).join('');
  // Back to the last space when the cut falls inside a word, unless that loses more than a
  // fifth of what fits (Korean and long words are cut where they are).
  const inWord = low < chars.length && /\S/.test(chars[low]!);
  const space = start.search(/\s\S*$/);
  const cut = (inWord && space > start.length * 0.8 ? start.slice(0, space) : start).trimEnd();
  if (cut === '') return null;
  return { ...entry, text: cut + ELLIPSIS, shortened: true };
}

/**
 * `entries`, in this order, within `budget` tokens: each whole while it fits; one that does not
 * fit is cut to the room left when that is at least LORE_MIN_CUT_TOKENS, which fills the share,
 * and else left out for a shorter one after it.
 */
function withinBudget(
  entries: readonly LoreEntry[],
  estimate: TokenEstimate,
  budget: number,
): ToldLoreEntry[] {
  const told: ToldLoreEntry[] = [];
  let room = budget;
  for (const entry of entries) {
    const cost = loreEntryTokens(entry, estimate);
    if (cost <= room) {
      told.push({ ...entry, shortened: false });
      room -= cost;
      continue;
    }
    const cut = room >= LORE_MIN_CUT_TOKENS ? cutToFit(entry, room, estimate) : null;
    if (!cut) continue;
    told.push(cut);
    break;
  }
  return told;
}

/** What the story holds when a turn's prompt is written, as plain texts. */
export interface TurnTexts {
  /** The story's log (its paragraphs and choices), oldest first: the mentions' recency. */
  storyLog: readonly { text: string }[];
  /** The latest paragraph, which the prompt carries. */
  lastParagraph: string;
  /** The player's choice for this turn (an option's text or their own words); '' for none. */
  choice: string;
  /** The story sheet as the prompt tells it; '' when there is none. */
  sheet: string;
}

/**
 * The entries the prompt of a turn carries, in the order it tells them: those marked always,
 * in the lorebook's order; then those whose keywords the last paragraph, the player's choice or
 * the story sheet mention, the most recently mentioned first (by the latest text of the story,
 * the choice being the newest, that mentions them; an entry only the sheet mentions comes after
 * every entry the story itself mentions; ties keep the lorebook's order). All within `budget`
 * tokens (see withinBudget). The prompt and the "Story so far" panel both call this.
 */
export function loreForTurn(
  lorebook: readonly LoreEntry[],
  turn: TurnTexts,
  estimate: TokenEstimate,
  budget: number = LOREBOOK_TOKEN_BUDGET,
): ToldLoreEntry[] {
  const always = lorebook.filter((entry) => entry.always);
  // Oldest first; the latest paragraph and the choice are the newest, in or out of the log.
  const texts = [...turn.storyLog.map((entry) => entry.text), turn.lastParagraph, turn.choice];
  const mentioned = lorebook.flatMap((entry, order) => {
    if (entry.always) return [];
    const mentions = keywordMatcher(entry.keywords);
    if (![turn.lastParagraph, turn.choice, turn.sheet].some(mentions)) return [];
    return [{ entry, order, latest: texts.findLastIndex(mentions) }];
  });
  mentioned.sort((a, b) => b.latest - a.latest || a.order - b.order);
  return withinBudget([...always, ...mentioned.map(({ entry }) => entry)], estimate, budget);
}

/**
 * The entries the opening's prompt carries: those marked always, in the lorebook's order,
 * within `budget` tokens. Nothing has been told yet to mention the others.
 */
export function loreForOpening(
  lorebook: readonly LoreEntry[],
  estimate: TokenEstimate,
  budget: number = LOREBOOK_TOKEN_BUDGET,
): ToldLoreEntry[] {
  return withinBudget(
    lorebook.filter((entry) => entry.always),
    estimate,
    budget,
  );
}

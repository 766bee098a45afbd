// A story's growing lists (its log, its memory, its rolls), kept entry by entry wherever a story
// is kept: in MyStoriesDB's 'storyParts' (browserPlace.ts) and in the cloud's story_parts
// (cloud/cloudStories.ts). A save compares the lists with the ones it last wrote and sends only
// the entries that changed, and each list's length. No I/O here.
import { isRecord } from '../../engine/guards';
import type { Story } from '../game';

export const STORY_PART_LISTS = [
  'storyLog',
  'storySummary',
  'outcomes',
  'moralChoices',
  'scenarioHistory',
] as const;
export type PartList = (typeof STORY_PART_LISTS)[number];

/** A story's lists, as `game` holds them: only the lists it has. */
export type StoryLists = Partial<Record<PartList, readonly unknown[]>>;

/** One entry of one list, to be written. */
export interface ListEntry {
  list: PartList;
  index: number;
  value: unknown;
}

/** The game without its lists, and the lists: what goes in the record, and what goes beside it. */
export function splitLists(game: Partial<Story>): { head: Partial<Story>; lists: StoryLists } {
  const head = { ...game };
  const lists: StoryLists = {};
  for (const list of STORY_PART_LISTS) {
    const value = head[list];
    if (!Array.isArray(value)) continue;
    lists[list] = value;
    delete head[list];
  }
  return { head, lists };
}

/**
 * Whether two entries of a list are the same: the same object, or flat records (a log entry)
 * with the same fields. The game keeps every entry it does not change, so the first test
 * answers for all but a turn's new or edited entries.
 */
export function sameEntry(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The entries of `lists` that differ from `known` (every entry when nothing is known). */
export function changedEntries(lists: StoryLists, known: StoryLists | undefined): ListEntry[] {
  const changed: ListEntry[] = [];
  for (const list of STORY_PART_LISTS) {
    const entries = lists[list] ?? [];
    const before = known?.[list] ?? [];
    for (let index = 0; index < entries.length; index += 1) {
      if (known && index < before.length && sameEntry(before[index], entries[index])) continue;
      changed.push({ list, index, value: entries[index] });
    }
  }
  return changed;
}

/** How long each list is: what a list that grew shorter is cut to. */
export function listLengths(lists: StoryLists): Partial<Record<PartList, number>> {
  return Object.fromEntries(
    Object.entries(lists).map(([list, entries]) => [list, entries.length]),
  ) as Partial<Record<PartList, number>>;
}

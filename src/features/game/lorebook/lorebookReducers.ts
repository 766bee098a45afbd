/**
 * The player's lorebook as events (issue 40, part 2): an entry added, changed, removed or put
 * back (Undo), and a genre's saved lorebook taken by a new story. Taken into gameSlice.ts's
 * reducers, so the events are the game's (game/loreEntryAdded, ...) and plain data a DevTools
 * export replays. The player may change the lorebook before the opening, at the name (the
 * opening is told the entries marked always) and after a failed opening, and between turns
 * (choosing, or after a stopped or failed turn); while a paragraph is written its prompt has
 * gone, and once the story has ended nothing is told any more. An entry past the limits
 * (src/engine/lorebook.ts, isLoreEntry) is refused whole: nothing of it is half taken; the
 * player's form trims and checks what it sends (views/loreForm.ts).
 */
import { nanoid } from '@reduxjs/toolkit';
import {
  LOREBOOK_MAX_ENTRIES,
  LORE_ALWAYS_MAX,
  alwaysCount,
  checkedLorebook,
  copyOfEntry,
  isLoreEntry,
  type LoreEntry,
} from '../../../engine/loreEntries';
import type { GameState, Phase, Story } from '../gameModel';
import { each, inPhases } from '../turn/phaseReducers';

/** Where the player may change the lorebook. */
export const LOREBOOK_PHASES = [
  'naming',
  'openingFailed',
  'choosing',
  'stopped',
  'failed',
] as const satisfies Phase[];

/** An entry as the player's form gives it: the event adds its id. */
export type LoreDraft = Omit<LoreEntry, 'id'>;

/** `entry` may stand in `story`'s lorebook beside the entries other than its own. */
function fitsBeside(story: Story, entry: LoreEntry): boolean {
  const others = story.lorebook.filter((kept) => kept.id !== entry.id);
  if (others.length >= LOREBOOK_MAX_ENTRIES) return false;
  return !entry.always || alwaysCount(others) < LORE_ALWAYS_MAX;
}

/** A new entry for `story`, within the limits, or null. */
function newEntry(story: Story, entry: unknown): LoreEntry | null {
  if (!isLoreEntry(entry) || story.lorebook.some((kept) => kept.id === entry.id)) return null;
  return fitsBeside(story, entry) ? copyOfEntry(entry) : null;
}

export const lorebookReducers = {
  /** The player wrote a new entry; it goes at the end of the lorebook. */
  loreEntryAdded: {
    reducer: inPhases<LoreEntry>(
      each(LOREBOOK_PHASES, ({ story }, payload: LoreEntry) => {
        const entry = newEntry(story, payload);
        if (entry) story.lorebook.push(entry);
      }),
    ),
    prepare: (draft: LoreDraft) => ({ payload: { ...draft, id: nanoid() } }),
  },
  /** The player changed an entry (any of its fields but its id), in its place. */
  loreEntryChanged: inPhases<LoreEntry>(
    each(LOREBOOK_PHASES, ({ story }, payload: LoreEntry) => {
      const index = story.lorebook.findIndex((kept) => kept.id === payload.id);
      if (index < 0 || !isLoreEntry(payload) || !fitsBeside(story, payload)) return;
      story.lorebook[index] = copyOfEntry(payload);
    }),
  ),
  loreEntryRemoved: inPhases<{ id: string }>(
    each(LOREBOOK_PHASES, ({ story }, { id }: { id: string }) => {
      const index = story.lorebook.findIndex((kept) => kept.id === id);
      if (index >= 0) story.lorebook.splice(index, 1);
    }),
  ),
  /** Undo after a removal: the entry back where it was (or last, if the book is shorter). */
  loreEntryRestored: inPhases<{ entry: LoreEntry; index: number }>(
    each(LOREBOOK_PHASES, ({ story }, payload: { entry: LoreEntry; index: number }) => {
      const entry = newEntry(story, payload.entry);
      if (!entry || !Number.isInteger(payload.index) || payload.index < 0) return;
      story.lorebook.splice(Math.min(payload.index, story.lorebook.length), 0, entry);
    }),
  ),
  /**
   * A new story of a genre the player keeps a lorebook for starts with a copy of it, told just
   * after the genre is chosen (lorebook/genreLorebook.ts); a story that has one keeps it.
   */
  genreLorebookTaken: inPhases<LoreEntry[]>({
    choosingPortrait({ story }: GameState, lorebook: LoreEntry[]) {
      if (story.lorebook.length === 0) story.lorebook = checkedLorebook(lorebook);
    },
  }),
};

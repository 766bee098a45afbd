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

/**
 * Whether `entry` may stand in `story`'s lorebook in place of the entry at `at` (-1: as a new
 * one): an entry within the limits, its id no other entry's, room for it and for its mark.
 */
function fits(story: Story, entry: unknown, at = -1): entry is LoreEntry {
  if (!isLoreEntry(entry)) return false;
  const others = story.lorebook.filter((_, index) => index !== at);
  return (
    !others.some((kept) => kept.id === entry.id) &&
    others.length < LOREBOOK_MAX_ENTRIES &&
    (!entry.always || alwaysCount(others) < LORE_ALWAYS_MAX)
  );
}

/** An event the lorebook hears where the player may change it. */
const lorebookEvent = <P>(apply: (story: Story, payload: P) => void) =>
  inPhases<P>(each(LOREBOOK_PHASES, ({ story }, payload: P) => apply(story, payload)));

const indexOf = (story: Story, id: string) => story.lorebook.findIndex((kept) => kept.id === id);

export const lorebookReducers = {
  /** The player wrote a new entry; it goes at the end of the lorebook. */
  loreEntryAdded: {
    reducer: lorebookEvent<LoreEntry>((story, entry) => {
      if (fits(story, entry)) story.lorebook.push(copyOfEntry(entry));
    }),
    prepare: (draft: LoreDraft) => ({ payload: { ...draft, id: nanoid() } }),
  },
  /** The player changed an entry (any of its fields but its id), in its place. */
  loreEntryChanged: lorebookEvent<LoreEntry>((story, entry) => {
    const at = indexOf(story, entry.id);
    if (at >= 0 && fits(story, entry, at)) story.lorebook[at] = copyOfEntry(entry);
  }),
  loreEntryRemoved: lorebookEvent<{ id: string }>((story, { id }) => {
    const at = indexOf(story, id);
    if (at >= 0) story.lorebook.splice(at, 1);
  }),
  /** Undo after a removal: the entry back where it was (or last, if the book is shorter). */
  loreEntryRestored: lorebookEvent<{ entry: LoreEntry; index: number }>(
    (story, { entry, index }) => {
      if (fits(story, entry) && index >= 0) story.lorebook.splice(index, 0, copyOfEntry(entry));
    },
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

// The saved-story record (SPEC.md section 3, "Saved story"), built once per save. `recordOf`
// makes it from the game's story: the record's own fields (what a list shows), the story without
// its growing lists (`head`), and the lists (storyLists.ts). Every place that keeps stories
// writes that one record (browserPlace.ts, and the cloud's place, cloud/cloudPlace.ts), each
// sending only the entries it has not acknowledged. Reading a kept record back is
// recordReader.ts's. No I/O here.
import { initialStory, portraitSrc, type Story } from '../game';
import { recordFieldsOf, type RecordFields } from './recordReader';
import type { CloudLink, RecordStamp, SavedStory, StoryDraft } from './savedStory';
import { splitLists, type StoryLists } from './storyLists';

export type { RecordFields } from './recordReader';

/**
 * The saved record of the story being played, if it has been saved before, and the write of it
 * this tab last saved or loaded.
 */
export interface CurrentRecord extends RecordStamp {
  id: number;
  walletAddress: string;
  /** Its id in the cloud (cloud saves, its published page, its leaderboard result's link). */
  cloudId?: string;
}

/**
 * One save of a story, as every place keeps it. `id`, `walletAddress` and `basedOn` say which
 * record it is a save of (none for a new story), `cloud` where the wallet's cloud keeps it (a
 * story brought down from there); the place decides the rest (its id, revision, time).
 */
export interface StoryRecord {
  id?: number;
  walletAddress?: string;
  basedOn?: RecordStamp;
  cloud?: CloudLink;
  fields: RecordFields;
  /** The story without its lists: what the record itself holds. */
  head: Partial<Story>;
  /** The story's lists, kept entry by entry beside the record. */
  lists: StoryLists;
}

/** The story a save keeps: the game's own fields and nothing else (never the API key). */
function storyFieldsOf(game: Partial<Story>): Partial<Story> {
  const fields = Object.keys(initialStory) as (keyof Story)[];
  return Object.fromEntries(
    fields.filter((field) => field in game).map((field) => [field, game[field]]),
  ) as Partial<Story>;
}

/** A record of a draft: a story imported, brought down from the cloud, or made by a test. */
export function recordFromDraft(draft: StoryDraft): StoryRecord {
  const { id, walletAddress, basedOn, cloud, game } = draft;
  const { head, lists } = splitLists(storyFieldsOf(game));
  return {
    ...(id !== undefined && { id }),
    ...(walletAddress !== undefined && { walletAddress }),
    ...(basedOn && { basedOn }),
    ...(cloud && { cloud }),
    fields: recordFieldsOf(draft as unknown as Record<string, unknown>),
    head,
    lists,
  };
}

/** The record of the story being played; `current` is its saved record, if it has one. */
export function recordOf(story: Story, current: CurrentRecord | null): StoryRecord {
  return recordFromDraft(storyDraftOf(story, current));
}

/** The story being played as a draft: its record's fields copied out, the story under `game`. */
export function storyDraftOf(story: Story, current: CurrentRecord | null): StoryDraft {
  return {
    ...(current && {
      id: current.id,
      walletAddress: current.walletAddress,
      basedOn: { revision: current.revision, lastSaved: current.lastSaved },
    }),
    chosenCharacter: story.chosenCharacter,
    chosenGenre: story.chosenGenre,
    characterBio: story.characterBio,
    characterImage: portraitSrc(story.chosenImage),
    previousParagraph: story.previousParagraph,
    isFinal: story.isFinal,
    endingType: story.recap?.endingType ?? '',
    game: story,
  };
}

/** The story a saved record resumes, or null when it holds none. */
export function storyOf(record: SavedStory): Story | null {
  return record.game.previousParagraph.trim() === '' ? null : record.game;
}

// Between the game's story and the saved story record (SPEC.md section 3, "Saved story"): the
// record's own fields are copied out of the story; the whole story goes under `game`. No I/O.
import { portraitSrc, type Story } from '../game';
import type { SavedStory, StoryDraft } from './savedStory';
import type { RecordStamp } from './storyRevision';

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

/** The story a saved record resumes, or null when it holds none (read by parseStory). */
export function storyOf(record: SavedStory): Story | null {
  return record.game.previousParagraph.trim() === '' ? null : record.game;
}

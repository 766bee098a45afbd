// Between the game's resumable snapshot and the saved story record (SPEC.md section 3, "Saved
// story"): the record's own fields are copied out of the game; the whole snapshot goes under
// `game`. No I/O here.
import { portraitSrc, restoreGame, type ResumableGame } from '../game';
import type { SavedStory, StoryDraft } from './savedStory';
import type { RecordStamp } from './storyRevision';

/**
 * The saved record of the story being played, if it has been saved before, and the write of it
 * this tab last saved or loaded.
 */
export interface CurrentRecord extends RecordStamp {
  id: number;
  walletAddress: string;
}

export function storyDraftOf(game: ResumableGame, current: CurrentRecord | null): StoryDraft {
  return {
    ...(current && {
      id: current.id,
      walletAddress: current.walletAddress,
      basedOn: { revision: current.revision, lastSaved: current.lastSaved },
    }),
    chosenCharacter: game.chosenCharacter,
    chosenGenre: game.chosenGenre,
    characterBio: game.characterBio,
    characterImage: portraitSrc(game.chosenImage),
    previousParagraph: game.previousParagraph,
    isFinal: game.isFinal,
    endingType: game.recap?.endingType ?? '',
    game: { ...game },
  };
}

/** The game a saved story resumes, or null when the record holds no story to resume. */
export function resumableGameOf(story: SavedStory): ResumableGame | null {
  // The record's own fields are the ones the list showed: they win over the snapshot's copies.
  return restoreGame({
    ...story.game,
    chosenCharacter: story.chosenCharacter,
    chosenGenre: story.chosenGenre,
    characterBio: story.characterBio,
    characterImage: story.characterImage,
    previousParagraph: story.previousParagraph,
    isFinal: story.isFinal,
  });
}

/**
 * What is wrong with a file offered as a story (storyExport.ts reads it). Apart from that code,
 * which is fetched with the first import (storyFiles.ts), so the import's failure policy can tell
 * this error from a storage failure.
 */
import type { PictureRefusal } from './pictures/storyPicture';

export type StoryImportErrorReason = 'notJson' | 'wrongFormat' | 'incomplete';

export class StoryImportError extends Error {
  override readonly name = 'StoryImportError';
  constructor(
    readonly reason: StoryImportErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a picture of an imported story was skipped (the story is imported all the same): what a
 * kept picture is refused for (storyPicture.ts), a second picture of the same turn, or a
 * storage failure while keeping it. Typed, for a view to say in the player's language.
 */
export type SkippedPictureReason = PictureRefusal | 'duplicateTurn' | 'storageFailed';

/** A picture skipped, by its place in the file's `pictures` and its turn where it had one. */
export interface SkippedPicture {
  index: number;
  turn: number | null;
  reason: SkippedPictureReason;
}

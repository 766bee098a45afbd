/**
 * What is wrong with a file offered as a story (storyExport.ts reads it). Apart from that code,
 * which is fetched with the first import (storyFiles.ts), so the import's failure policy can tell
 * this error from a storage failure.
 */
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

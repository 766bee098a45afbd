// The saved-stories feature's public API: storage (MyStoriesDB) and export/import.
export { ANONYMOUS_WALLET, MIN_PREVIOUS_PARAGRAPH_LENGTH, isListable } from './savedStory';
export type { SavedStory, StoryDraft } from './savedStory';
export {
  STORIES_DB_NAME,
  STORIES_DB_VERSION,
  StorageError,
  deleteFinishedStories,
  deleteStory,
  getStory,
  listStories,
  openStoriesDb,
  saveStory,
  storyIds,
} from './storiesDb';
export type { SaveResult, StorageErrorReason, StoriesDb } from './storiesDb';
export {
  STORY_EXPORT_FORMAT,
  STORY_EXPORT_VERSION,
  StoryImportError,
  parseStoryJson,
  storyToJson,
  storyToMarkdown,
} from './storyExport';
export type { StoryImportErrorReason, StoryMarkdownLabels } from './storyExport';

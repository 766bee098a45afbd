// The saved-stories feature's public API: storage (MyStoriesDB), export/import, the state and
// events, the parts the app puts into the game's views, and its flows (the root saga and one
// worker per flow, cloud saves' included, for tests and tools: the bundles import none of them,
// and the loaders fetch them).
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
export type { RecordStamp } from './storyRevision';
export type { TabChannel } from './tabChannel';
export { browserStoriesContext } from './browserContext';
export type { StoriesContext } from './sagas/sagaContext';
export type { PersistenceAnswer, PersistentStorage, StoragePersistence } from './persistentStorage';
export {
  STORY_EXPORT_FORMAT,
  STORY_EXPORT_VERSION,
  StoryImportError,
  parseStoryJson,
  storyToJson,
  storyToMarkdown,
} from './storyExport';
export type { StoryImportErrorReason, StoryMarkdownLabels } from './storyExport';
export {
  initialStoriesState,
  isFailureNotice,
  selectLocalStoriesDeleted,
  selectOtherTabNotice,
  selectSavedStories,
  selectStoriesNotice,
  selectUnfinishedStory,
  selectCloud,
  selectCurrentRecord,
  selectStoragePersistence,
  storiesActions,
  storiesSlice,
} from './storiesSlice';
export type { OtherTabNotice, StoriesState, StoryNotice } from './storiesSlice';
export { LocalStoriesDeletedNote } from './views/LocalStoriesDeletedNote';
export { SaveGameButton } from './views/SaveGameButton';
export { PublishButton, PublishCurrentStory } from './views/PublishButton';
export { SavedStoriesList } from './views/SavedStoriesList';
export { StartNewGame } from './views/StartNewGame';
export { StoriesNotice } from './views/StoriesNotice';
export { storiesSaga } from './sagas/storiesSaga';
export {
  AUTO_SAVE_DELAY_MS,
  saveWhenStoryChanges,
  autoSave,
  manualSave,
  saveCurrentStory,
  saveInTurn,
} from './sagas/saving';
export type { SaveKind, SaveOutcome } from './sagas/saving';
export { followWallet, listSaved } from './sagas/savedList';
export { loadSaved } from './sagas/loading';
export { deleteSaved } from './sagas/deleting';
export { importStory } from './sagas/importing';
export { deleteFinished } from './sagas/afterLeaderboard';
export { hearOtherTabs } from './sagas/otherTabs';
export { NOTICE_MS, expireNotice } from './sagas/notices';
export {
  CLOUD_RETRY_MS,
  bringDown,
  cloudSaga,
  deleteEverywhere,
  deleteInCloud,
  listCloud,
  loadFromCloud,
  nothingSent,
  publish,
  sendInTurn,
  sendStory,
  sendWaitingSaves,
  unpublish,
} from './cloud/cloudSaga';
export type { Sent } from './cloud/cloudSaga';
export { CloudError, saveToCloud } from './cloud/cloudStories';
export type { CloudProblem, CloudStory, PublishTarget } from './cloud/cloudModel';
export type { CloudLink } from './savedStory';
export { loadCloudWhenWanted } from './sagas/cloudLoader';
export { keepStories } from './sagas/keeping';

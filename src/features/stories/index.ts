// The saved-stories feature's public API: the story record and the places that keep it (the
// browser's MyStoriesDB, the wallet's cloud) with the outbox between them, export/import, the
// state and events, the parts the app puts into the game's views, and its flows (the root saga
// and one worker per flow, cloud saves' included, for tests and tools: the bundles import none
// of them, and the loaders fetch them).
export { ANONYMOUS_WALLET, MIN_PREVIOUS_PARAGRAPH_LENGTH, isListable } from './savedStory';
export type { SavedStory, StoryDraft } from './savedStory';
export {
  STORIES_DB_NAME,
  STORIES_DB_VERSION,
  StorageError,
  openStoriesDb,
  openedOnce,
} from './browserDb';
export type { StorageErrorReason, StoriesDb } from './browserDb';
export {
  DamagedStoryError,
  deleteFinishedStories,
  deleteStory,
  getStory,
  keepInBrowser,
  linkToCloud,
  listStories,
  saveStory,
  storyIds,
} from './browserPlace';
export type { KeptStory, ListedStory, SaveResult } from './browserPlace';
export {
  copySharedPictures,
  forgetPictureAt,
  forgetPictures,
  keepPicture,
  keepsPictures,
  pictureAt,
  picturesOf,
  sharesScene,
} from './pictureStore';
export type { KeepPictureResult } from './pictureStore';
export {
  ENDING_TURN,
  MAX_MOMENT_PICTURES,
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_STORY,
  OPENING_TURN,
  PICTURE_TARGET_BYTES,
} from './pictures/storyPicture';
export type {
  PictureMediaType,
  PictureMoment,
  PictureRefusal,
  PictureToKeep,
  StoryPicture,
} from './pictures/storyPicture';
export { recordFromDraft, recordOf, storyDraftOf, storyOf } from './storyRecord';
export type { CurrentRecord, StoryRecord } from './storyRecord';
export { isRecordProblem, readRecord } from './recordReader';
export type { RecordProblem } from './recordReader';
export { makeOutbox } from './outbox';
export type { Outbox, PlaceQueue } from './outbox';
export type { RecordStamp } from './storyRevision';
export type { TabChannel } from './tabChannel';
export { browserStoriesContext } from './browserContext';
export type { StoriesContext } from './sagas/sagaContext';
export type { PersistenceAnswer, PersistentStorage, StoragePersistence } from './persistentStorage';
export {
  STORY_EXPORT_FORMAT,
  STORY_EXPORT_VERSION,
  STORY_EXPORT_VERSIONS_READ,
  parseStoryFile,
  parseStoryJson,
  storyFileOf,
  storyToJson,
  storyToMarkdown,
} from './storyExport';
export type { StoryFile, StoryMarkdownLabels } from './storyExport';
export { exportedPictures, readExportedPictures } from './pictures/picturesFile';
// What a worker may load of the saved stories, the page's too.
export * from './workerParts';
export { hasOffscreenCanvas } from './pictures/browserCodec';
export type { ExportedPicture, ImportedPicture } from './pictures/picturesFile';
export {
  StoryImportError,
  type SkippedPicture,
  type SkippedPictureReason,
  type StoryImportErrorReason,
} from './storyImportError';
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
export { PublishButton, PublishCurrentStory } from './cloud/views/PublishButton';
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
export { cloudSaga, cloudFlowFor } from './cloud/cloudFlows';
export { CLOUD_FLOW_STARTERS } from './cloud/cloudFlowStarters';
export {
  CLOUD_PLACE,
  CLOUD_RETRY_MS,
  rebuildQueue,
  sendInTurn,
  sendKept,
  sendWaitingSaves,
} from './cloud/sagas/sending';
export { bringDown, loadFromCloud, reconcile } from './cloud/sagas/listing';
export { deleteEverywhere, deleteInCloud } from './cloud/sagas/deleting';
export { publish, unpublish } from './cloud/sagas/publishing';
export { newCloudPlace, sendToCloud } from './cloud/cloudPlace';
export type { CloudPlace } from './cloud/cloudPlace';
export { CloudError, saveToCloud, setPublished } from './cloud/cloudStories';
export type { CloudProblem, CloudStory, PublishTarget } from './cloud/cloudModel';
export type { CloudLink } from './savedStory';
export { loadCloudWhenWanted } from './cloud/cloudLoader';
export { keepStories } from './sagas/keeping';

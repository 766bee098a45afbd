// The pictures feature's public API (issue 41): its state and events, the slots the app puts
// into the game's views, its saga context, and its flows (the root saga and one worker per
// flow, for tests and tools: the bundles import none of them, and the loader fetches them).
export {
  initialPicturesState,
  picturesActions,
  picturesSlice,
  selectCanIllustrate,
  selectImageModels,
  selectPictureModel,
  selectPictureAt,
  selectStoryPictures,
} from './picturesSlice';
export type {
  ImageModels,
  PictureFailure,
  PicturesState,
  ShownPicture,
  StoryPictureState,
} from './picturesSlice';
export type { KeptImage, PictureClient, PicturesContext } from './sagas/sagaContext';
export { IllustrateSlot, pictureAt } from './pictureSlots';
export { picturesSaga, followWhenIllustrated } from './sagas/picturesSaga';
export {
  followStories,
  illustrateStory,
  keepBranchPictures,
  showKeptPictures,
} from './sagas/storyPictures';
export { drawPicture, altOf, failureOf, paragraphOf, promptOf } from './sagas/drawing';
export { IMAGE_MODELS_TIMEOUT_MS, listImageModels } from './sagas/imageModels';

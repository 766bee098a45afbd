// What the pictures' loader fetches (picturesSagaLoader.ts): their first flows and the browser's
// client, and how a story's pictures' flows are fetched in turn (with the first story illustrated).
export { browserPictureClient } from './browserPictureClient';
export { picturesSaga } from './sagas/picturesSaga';

/** A story's pictures' flows, in the chunk of the code that draws (drawingClient.ts). */
export const loadStoryPictures = () =>
  import(/* webpackChunkName: "pictures-drawing" */ './sagas/storyPictures');

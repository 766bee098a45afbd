// What the pictures' loader fetches (picturesSagaLoader.ts): their flows and the browser's client.
export { browserPictureClient } from './browserPictureClient';
export { picturesSaga } from './sagas/picturesSaga';

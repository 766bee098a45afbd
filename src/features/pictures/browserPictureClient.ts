/**
 * The page's picture client: the provider's endpoints over fetch, downloaded with the pictures'
 * flows (the first key of a provider that draws, or the first illustrated story), never with
 * the home screen or a game without them; and the browser's compression, which the app hands
 * in (the saved stories' worker, whose module only a browser bundle can load).
 */
import type { KeptImage, PictureClient } from './sagas/sagaContext';

const calls = () => import(/* webpackChunkName: "pictures-flow" */ './pictureCalls');

export function browserPictureClient(compress: (image: Blob) => Promise<KeptImage>): PictureClient {
  return {
    listImageModels: (request) => calls().then((c) => c.fetchImageModelList(request)),
    draw: (request) => calls().then((c) => c.requestPicture(request)),
    compress,
  };
}

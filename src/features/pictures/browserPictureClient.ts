/**
 * The page's picture client: the provider's endpoints over fetch and the browser's compression
 * worker, whose code is downloaded with the pictures' flows (the first key of a provider that
 * draws, or the first illustrated story), never with the home screen or a game without them.
 */
import type { PictureClient } from './sagas/sagaContext';

const calls = () => import(/* webpackChunkName: "pictures-flow" */ './pictureCalls');

export function browserPictureClient(): PictureClient {
  return {
    listImageModels: (request) => calls().then((c) => c.fetchImageModelList(request)),
    draw: (request) => calls().then((c) => c.requestPicture(request)),
    compress: (image) => calls().then((c) => c.compressInThisBrowser(image)),
  };
}

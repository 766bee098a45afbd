/**
 * The page's picture client: the provider's endpoints over fetch and the browser's compression
 * (in a worker where it can be). It comes with the pictures' flows (flows.ts), and their loader
 * puts it into the saga context unless the store was given one (a test's).
 */
import { fetchImageModelList, requestPicture } from '../llm';
import { compressInThisBrowser } from '../stories';
import type { PictureClient } from './sagas/sagaContext';

export function browserPictureClient(): PictureClient {
  return {
    listImageModels: fetchImageModelList,
    draw: requestPicture,
    compress: compressInThisBrowser,
  };
}

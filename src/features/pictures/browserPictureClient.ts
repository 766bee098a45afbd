/**
 * The page's picture client: the provider's endpoints over fetch, their answers read and the
 * pictures compressed in the pictures' worker where the browser can (work/). It
 * comes with the pictures' flows (flows.ts), and their loader puts it into the saga context
 * unless the store was given one (a test's).
 */
import { fetchImageModelList, requestPicture } from '../llm';
import type { PictureClient } from './sagas/sagaContext';
import { pictureWork } from './work/pictureWorker';

/** The worker's opening, whose `import.meta` only a bundle holds: loaded with the first job. */
const openPicturesWorker = () =>
  import(/* webpackChunkName: "pictures-flow" */ './work/openPicturesWorker').then((opening) =>
    opening.openPicturesWorker(),
  );

export function browserPictureClient(): PictureClient {
  const work = pictureWork(openPicturesWorker);
  return {
    listImageModels: fetchImageModelList,
    draw: (request) => requestPicture({ ...request, reader: work.reader }),
    compress: work.compress,
  };
}

/**
 * The page's drawing (issue 41): the provider's picture request, its answer read and the
 * picture compressed, in one job of the pictures' worker where the browser can (work/). It
 * comes with the story pictures' flows, in their chunk, when the first story is illustrated
 * (browserPictureClient.ts asks for it then).
 */
import type { PictureClient } from './sagas/sagaContext';
import { pictureWork } from './work/pictureWorker';

/** The worker's opening, whose `import.meta` only a bundle holds: loaded with the first job. */
const openPicturesWorker = () =>
  import(/* webpackChunkName: "pictures-drawing" */ './work/openPicturesWorker').then((opening) =>
    opening.openPicturesWorker(),
  );

export type Drawing = Pick<PictureClient, 'draw'>;

export function browserDrawing(): Drawing {
  return { draw: pictureWork(openPicturesWorker).drawKept };
}

/**
 * The page's picture client: the provider's model list read over fetch as soon as a key is
 * accepted, and its drawing (drawingClient.ts: the picture's request, its answer read and
 * compressed in the pictures' worker) fetched with the first picture, in the story pictures'
 * chunk. It comes with the pictures' flows (flows.ts), and their loader puts it into the saga
 * context unless the store was given one (a test's).
 */
import { fetchImageModelList } from '../llm';
import type { Drawing } from './drawingClient';
import type { PictureClient } from './sagas/sagaContext';

export function browserPictureClient(): PictureClient {
  let drawing: Promise<Drawing> | null = null;
  // Fetched once; a fetch that failed (the network dropped) is tried again with the next picture.
  const drawingCode = () =>
    (drawing ??= import(/* webpackChunkName: "pictures-drawing" */ './drawingClient').then(
      (code) => code.browserDrawing(),
      (error: unknown) => {
        drawing = null;
        throw error;
      },
    ));
  return {
    listImageModels: fetchImageModelList,
    draw: async (request) => (await drawingCode()).draw(request),
  };
}

// Compressing a picture in this browser (pictureCompression.ts): in a worker where the browser
// can (an OffscreenCanvas and createImageBitmap there), so the page's main thread only posts the
// blob and takes the result; on the page where it cannot, or where the worker would not start.
// Webpack 5 builds the worker from `new Worker(new URL(..., import.meta.url))` as a chunk of its
// own, fetched with the first picture; it is same-origin script, which the CSP's script-src
// 'self' already allows (no worker-src is set).
import { browserCodec, hasOffscreenCanvas } from './browserCodec';
import type { CompressionReply, CompressionRequest } from './compressionMessages';
import {
  type CompressedPicture,
  PictureCompressionError,
  compressPicture,
} from './pictureCompression';

type Waiting = (reply: CompressionReply) => void;

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 1;
const waiting = new Map<number, Waiting>();

function startWorker(): Worker | null {
  if (workerFailed || typeof Worker === 'undefined' || !hasOffscreenCanvas()) return null;
  if (worker) return worker;
  try {
    worker = new Worker(
      /* webpackChunkName: "picture-compression" */
      new URL('./compression.worker.ts', import.meta.url),
    );
  } catch (error) {
    console.warn('The picture compression worker did not start; compressing on the page', error);
    workerFailed = true;
    return null;
  }
  worker.onmessage = ({ data }: MessageEvent<CompressionReply>) => {
    waiting.get(data.id)?.(data);
    waiting.delete(data.id);
  };
  // A worker that cannot load (or dies) gives its pictures back to the page, and no more go.
  worker.onerror = (event) => {
    console.warn('The picture compression worker failed; compressing on the page', event.message);
    workerFailed = true;
    worker?.terminate();
    worker = null;
    const lost = [...waiting.values()];
    waiting.clear();
    for (const resolve of lost) resolve({ id: 0, problem: 'notAnImage', message: 'worker lost' });
  };
  return worker;
}

/** Compresses on the page: the same steps, the main thread's time. */
function compressOnPage(blob: Blob): Promise<CompressedPicture> {
  return compressPicture(blob, browserCodec());
}

/**
 * A provider's picture as it is kept: WebP (or JPEG) of at most PICTURE_LONG_SIDE and about
 * PICTURE_TARGET_BYTES. Throws a PictureCompressionError.
 */
export function compressInBrowser(blob: Blob): Promise<CompressedPicture> {
  const running = startWorker();
  if (!running) return compressOnPage(blob);
  const id = nextId++;
  return new Promise<CompressedPicture>((resolve, reject) => {
    waiting.set(id, (reply) => {
      if ('picture' in reply) resolve(reply.picture);
      else if (reply.id === 0) compressOnPage(blob).then(resolve, reject);
      else reject(new PictureCompressionError(reply.problem, reply.message));
    });
    const request: CompressionRequest = { id, blob };
    running.postMessage(request);
  });
}

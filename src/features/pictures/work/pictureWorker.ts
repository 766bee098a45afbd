// The page's side of the pictures' worker (pictures.worker.ts): a preset provider's picture
// asked for and read, a Custom server's answer read, a picture fetched by URL checked, and a
// picture compressed there, the page's main thread only handing over a request or a blob and
// taking back the outcome. Where a browser cannot (no worker, a worker that would not start, no
// OffscreenCanvas to compress with there), the page does the same job.
//
// A response goes over as a Blob (below, bodyOf, and how its bound is kept); its stream
// transferred instead would pass every chunk through the page's main thread (Chromium
// serializes each chunk to the worker: npm run bench picturesTurn).
import {
  MAX_ANSWER_BYTES,
  MAX_PICTURE_BYTES,
  boundedChunks,
  declaredLength,
  pictureTooLarge,
  requestPicture,
  type Picture,
  type PictureReader,
  type PictureRequest,
} from '../../llm';
import { hasOffscreenCanvas, type CompressedPicture } from '../../stories';
import {
  doPictureWork,
  errorOf,
  type JobBody,
  type JobFailure,
  type JobMessage,
  type JobReply,
  type JobOutcome,
  type PictureJob,
} from './pictureWork';

/** The pictures' work as the page's picture client asks for it. */
export interface PictureWork {
  /**
   * One picture asked of the provider (llm requestPicture): the whole request in the worker for
   * a preset provider, its answer never on the page; a Custom server's from the page (whose
   * browser asks the player before it reaches their own network), its answer read in the worker.
   */
  draw(request: PictureRequest): Promise<Picture>;
  /**
   * One picture asked of the provider and compressed for keeping: in one job of the worker
   * where it can do both (a preset provider's picture, and an OffscreenCanvas there), so that
   * the page's main thread hands over a request and takes back the kept picture, no more; else
   * draw() and then compress().
   */
  drawKept(request: PictureRequest): Promise<CompressedPicture>;
  /** Reads a picture's answer, and a picture fetched by URL (llm PictureReader). */
  reader: PictureReader;
  /**
   * A provider's picture as it is kept: WebP (or JPEG) of at most PICTURE_LONG_SIDE and about
   * PICTURE_TARGET_BYTES. Throws a PictureCompressionError.
   */
  compress(image: Blob): Promise<CompressedPicture>;
}

/** A job's outcome, or what is left of it for the page to do itself (its worker lost). */
type Done = JobOutcome | { handedBack: PictureJob };
type Waiting = (done: Done) => void;

/** A picture whose request the worker had started, and not yet drawn, when it was lost. */
const WORKER_LOST: JobFailure = {
  picture: 'unreachable',
  message: 'The pictures worker stopped while it asked for the picture',
  details: {},
};

/**
 * Whether a request may be made in the worker: a preset provider's public API, asked with the
 * browser's own fetch. A server whose address the player gives (Custom, a local one: perhaps on
 * their own network) is asked from the page; so is a request given a fetch of its own (a
 * test's), which no message can carry.
 */
const drawsInWorker = (request: PictureRequest) =>
  !request.provider.editableBaseUrl && request.fetch === undefined;

/**
 * A response's body as a blob of at most `limit` bytes, and the headers its reading needs.
 * - A declared Content-Length over the bound is refused unread.
 * - One within it: Response.blob(), which the browser gathers off the page's script (reading
 *   the chunks here instead made a picture's turn 3.4x an unillustrated one's, against 2.3x:
 *   npm run bench picturesTurn). A compressed body declares its compressed length, so the blob's
 *   size is checked too, before any of it is read.
 * - None declared (a chunked body): the chunks are counted as they come and the body cancelled
 *   past the bound, since nothing bounds it before; the Blob still gathers them natively.
 */
async function bodyOf(response: Response, limit: number): Promise<JobBody> {
  const declared = await declaredLength(response, limit);
  const headers = [...response.headers];
  if (declared !== null || !response.body) {
    const body = await response.blob();
    if (body.size > limit) throw pictureTooLarge(body.size);
    return { body, headers };
  }
  return { body: new Blob(await boundedChunks(response.body, limit)), headers };
}

/** What the job came to, or the error it failed with, made again. */
function resultOf<K extends 'answer' | 'picture' | 'compressed'>(outcome: JobOutcome, key: K) {
  if (key in outcome) return (outcome as Extract<JobOutcome, Record<K, unknown>>)[key];
  if ('failed' in outcome) throw errorOf(outcome.failed);
  throw new Error(`The pictures worker answered no ${key}`);
}

/**
 * The pictures' work done in the worker `openWorker` starts (openPicturesWorker.ts, loaded with
 * the first job; a test's own), started with the first job; on the page where there is none
 * (null) or it fails.
 */
export function pictureWork(openWorker: () => Promise<Worker | null>): PictureWork {
  let starting: Promise<Worker | null> | null = null;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  /**
   * What the page would do itself of each job under way, were the worker lost: the job, until a
   * 'draw' job's request has gone out; then nothing (null: asked again, the picture could be
   * billed twice); once its picture is drawn, its compression.
   */
  const leftOver = new Map<number, PictureJob | null>();

  function listenTo(worker: Worker): Worker {
    worker.onmessage = ({ data }: MessageEvent<JobReply>) => {
      if (!('outcome' in data)) {
        if (!waiting.has(data.id)) return;
        const image = 'drawn' in data ? data.drawn.image : null;
        leftOver.set(data.id, image && { kind: 'compress', image });
        return;
      }
      waiting.get(data.id)?.(data.outcome);
      waiting.delete(data.id);
      leftOver.delete(data.id);
    };
    // A worker that cannot load (or dies), or whose reply cannot be read, hands what is left of
    // its jobs back, and no more go to it; but a picture it had asked for and not yet drawn
    // fails (Try again is the player's), since asked again it could be billed twice.
    const failed = (why: string) => {
      console.warn('The pictures worker failed; the page does its work', why);
      starting = Promise.resolve(null);
      worker.terminate();
      const lost = [...waiting];
      waiting.clear();
      for (const [id, handBack] of lost) {
        const left = leftOver.get(id);
        leftOver.delete(id);
        handBack(left ? { handedBack: left } : { failed: WORKER_LOST });
      }
    };
    worker.onerror = (event) => failed(event.message);
    worker.onmessageerror = () => failed('a reply could not be read');
    return worker;
  }

  const startWorker = () =>
    (starting ??= openWorker().then(
      (worker) => worker && listenTo(worker),
      (error: unknown) => {
        console.warn('The pictures worker did not start; the page does its work', error);
        return null;
      },
    ));

  /**
   * The job done in the worker where it can be, else here. `signal` (a 'draw' job's) aborts it
   * at once where it was asked for, and tells the worker to stop its request.
   */
  async function work(job: PictureJob, signal?: AbortSignal): Promise<JobOutcome> {
    // Compressing in a worker needs an OffscreenCanvas there.
    const running = job.kind !== 'compress' || hasOffscreenCanvas() ? await startWorker() : null;
    if (!running) return doPictureWork(job, signal);
    signal?.throwIfAborted();
    const id = nextId++;
    let stop = () => {};
    const outcome = new Promise<Done>((resolve, reject) => {
      waiting.set(id, resolve);
      leftOver.set(id, job);
      stop = () => {
        waiting.delete(id);
        leftOver.delete(id);
        running.postMessage({ id, abort: true } satisfies JobMessage);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', stop, { once: true });
    });
    running.postMessage({ id, job } satisfies JobMessage);
    const done = await outcome.finally(() => signal?.removeEventListener('abort', stop));
    // A worker lost on the way hands back what is left of the job (a blob, or a request never
    // sent, can be given again; a picture it drew, compressed here), or fails a picture it had
    // asked for and not drawn.
    return 'handedBack' in done ? doPictureWork(done.handedBack, signal) : done;
  }

  const reader: PictureReader = {
    async answer(response, drawing, apiKey) {
      const body = await bodyOf(response, MAX_ANSWER_BYTES);
      return resultOf(await work({ kind: 'answer', drawing, apiKey, ...body }), 'answer');
    },
    async picture(response) {
      const body = await bodyOf(response, MAX_PICTURE_BYTES);
      return resultOf(await work({ kind: 'picture', ...body }), 'picture');
    },
  };

  /** A preset provider's picture asked for by a job (drawsInWorker), compressed there or not. */
  async function drawJob<K extends 'picture' | 'compressed'>(request: PictureRequest, key: K) {
    const { signal, fetch: _fetch, now: _now, reader: _reader, ...asked } = request;
    const compress = key === 'compressed';
    return resultOf(await work({ kind: 'draw', request: asked, compress }, signal), key);
  }

  const draw = (request: PictureRequest): Promise<Picture> =>
    drawsInWorker(request) ? drawJob(request, 'picture') : requestPicture({ ...request, reader });
  const compress = async (image: Blob) =>
    resultOf(await work({ kind: 'compress', image }), 'compressed');

  return {
    draw,
    async drawKept(request) {
      if (drawsInWorker(request) && hasOffscreenCanvas()) return drawJob(request, 'compressed');
      const { image } = await draw(request);
      request.signal?.throwIfAborted();
      return compress(image);
    },
    reader,
    compress,
  };
}

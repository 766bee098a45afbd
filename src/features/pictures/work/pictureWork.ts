/**
 * The heavy part of a picture (issue 41, part 6), as jobs the pictures' worker does
 * (pictures.worker.ts) or, where there is no worker, the page does with the same code:
 * - 'answer': a provider's answer read into its picture (llm readHere.answer): megabytes of
 *   JSON and base64 for a gpt-image picture;
 * - 'picture': a picture fetched by the URL an answer named, its bytes bounded and checked;
 * - 'compress': a picture decoded, resized and encoded for keeping (stories compressPicture);
 * - 'draw': a picture asked of a preset provider's public API and read, the whole request
 *   (llm requestPicture) made where the job runs, so that its answer never reaches the page's
 *   main thread at all; with `compress`, compressed there too, so that the page gets back only
 *   the picture as it is kept. Never a Custom server's (pictureWorker.ts keeps those on the
 *   page, which the browser asks the player about reaching their own network).
 * A job's body comes as a Blob of the response (Response.blob(): the browser gathers the bytes
 * itself, and handing a Blob to the worker passes a handle, not the bytes); its outcome is plain
 * data either way, a failure included, which pictureWorker.ts turns back into the error it was.
 */
import {
  PictureError,
  readHere,
  requestPicture,
  type Picture,
  type PictureAnswer,
  type PictureDrawing,
  type PictureErrorDetails,
  type PictureFailureKind,
  type PictureRequest,
} from '../../llm/workerParts';
import {
  PictureCompressionError,
  browserCodec,
  compressPicture,
  type CompressedPicture,
  type PictureCompressionProblem,
} from '../../stories/workerParts';

/** A response as a job carries it: its body and the headers its reading looks at. */
export interface JobBody {
  body: Blob;
  headers: [string, string][];
}

/** A picture's request as a job carries it: plain data, its signal the job's own. */
export type DrawnRequest = Omit<PictureRequest, 'signal' | 'fetch' | 'now' | 'reader'>;

export type PictureJob =
  | ({ kind: 'answer'; drawing: PictureDrawing; apiKey: string } & JobBody)
  | ({ kind: 'picture' } & JobBody)
  | { kind: 'compress'; image: Blob }
  | { kind: 'draw'; request: DrawnRequest; compress?: boolean };

/** A failure as plain data: a PictureError's kind and details, or an error's name. */
export type JobFailure =
  | { picture: PictureFailureKind; message: string; details: PictureErrorDetails }
  | { compression: PictureCompressionProblem; message: string }
  | { name: string; message: string };

export type JobOutcome =
  | { answer: PictureAnswer }
  | { picture: Picture }
  | { compressed: CompressedPicture }
  | { failed: JobFailure };

const responseOf = ({ body, headers }: JobBody) => new Response(body, { headers });

function failureOf(error: unknown): JobFailure {
  if (error instanceof PictureError) {
    const { status, providerMessage, code, retryAfterMs } = error;
    return {
      picture: error.kind,
      message: error.message,
      details: { status, providerMessage, code, retryAfterMs },
    };
  }
  if (error instanceof PictureCompressionError) {
    return { compression: error.reason, message: error.message };
  }
  const { name = 'Error', message = String(error) } = (error ?? {}) as Partial<Error>;
  return { name, message };
}

/** The error a failure was, made again where the job was asked for. */
export function errorOf(failure: JobFailure): Error {
  if ('picture' in failure)
    return new PictureError(failure.picture, failure.message, failure.details);
  if ('compression' in failure) {
    return new PictureCompressionError(failure.compression, failure.message);
  }
  // A stream that broke off is fetch's TypeError, an abort the DOMException it was.
  if (failure.name === 'TypeError') return new TypeError(failure.message);
  return new DOMException(failure.message, failure.name);
}

/**
 * A 'draw' job's picture, compressed for keeping where it was drawn if the job says; `onDrawn`
 * hears of the picture before it is compressed.
 */
async function drawn(
  request: DrawnRequest,
  signal: AbortSignal,
  compress: boolean,
  onDrawn: (picture: Picture) => void,
) {
  const picture = await requestPicture({ ...request, signal, reader: readHere });
  if (!compress) return { picture };
  onDrawn(picture);
  return { compressed: await compressPicture(picture.image, browserCodec()) };
}

/**
 * Does one job where it is called: in the worker, or on a page that has none. `signal` stops a
 * 'draw' job's request (the page's abort, sent on by the worker); `onDrawn` hears of a 'draw'
 * job's picture drawn, before it is compressed.
 */
export async function doPictureWork(
  job: PictureJob,
  signal: AbortSignal = new AbortController().signal,
  onDrawn: (picture: Picture) => void = () => {},
): Promise<JobOutcome> {
  try {
    switch (job.kind) {
      case 'draw':
        // The player's own server is asked from the page alone (pictureWorker.ts).
        if (job.request.provider.editableBaseUrl) {
          throw new PictureError('other', 'A server of the player is not asked from the worker');
        }
        return await drawn(job.request, signal, job.compress === true, onDrawn);
      case 'answer':
        return { answer: await readHere.answer(responseOf(job), job.drawing, job.apiKey) };
      case 'picture':
        return { picture: await readHere.picture(responseOf(job)) };
      case 'compress':
        return { compressed: await compressPicture(job.image, browserCodec()) };
    }
  } catch (error) {
    return { failed: failureOf(error) };
  }
}

/** What the page posts to the worker: a job, or the abort of one under way. */
export type JobMessage = { id: number; job: PictureJob } | { id: number; abort: true };

/**
 * What the worker posts back: a job's outcome; before a 'draw' job's request goes out, that it
 * has started (a worker lost after that is not asked again by the page: the provider may already
 * bill the picture); and a picture drawn to be compressed, before it is (a worker lost while it
 * compresses leaves the page the picture, which it compresses itself: never drawn twice).
 */
export type JobReply =
  | { id: number; outcome: JobOutcome }
  | { id: number; started: true }
  | { id: number; drawn: Picture };

/**
 * The worker's side of the messages (pictures.worker.ts): each job done and its outcome sent
 * with `reply`, one at a time or several at once; an abort stops that job's request, and the
 * page, which no longer waits for it, hears nothing more of it.
 */
export function jobRunner(
  reply: (message: JobReply) => void,
): (message: JobMessage) => Promise<void> {
  const asked = new Map<number, AbortController>();
  return async (message) => {
    if ('abort' in message) {
      asked.get(message.id)?.abort();
      return;
    }
    const controller = new AbortController();
    asked.set(message.id, controller);
    if (message.job.kind === 'draw') reply({ id: message.id, started: true });
    const outcome = await doPictureWork(message.job, controller.signal, (picture) =>
      reply({ id: message.id, drawn: picture }),
    );
    asked.delete(message.id);
    if (controller.signal.aborted) return;
    try {
      reply({ id: message.id, outcome });
    } catch (error) {
      // An outcome that cannot be sent is told as a failure, so that the page waits no more.
      const said = error instanceof Error ? error.message : String(error);
      reply({ id: message.id, outcome: { failed: { name: 'Error', message: said } } });
    }
  };
}

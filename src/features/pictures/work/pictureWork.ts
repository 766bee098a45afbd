/**
 * The heavy part of a picture (issue 41, part 6), as jobs the pictures' worker does
 * (pictures.worker.ts) or, where there is no worker, the page does with the same code:
 * - 'answer': a provider's answer read into its picture (llm readHere.answer): megabytes of
 *   JSON and base64 for a gpt-image picture;
 * - 'picture': a picture fetched by the URL an answer named, its bytes bounded and checked;
 * - 'compress': a picture decoded, resized and encoded for keeping (stories compressPicture).
 * A job's body comes as a Blob of the response (Response.blob(): the browser gathers the bytes
 * itself, and handing a Blob to the worker passes a handle, not the bytes); its outcome is plain
 * data either way, a failure included, which pictureWorker.ts turns back into the error it was.
 */
import {
  PictureError,
  readHere,
  type Picture,
  type PictureAnswer,
  type PictureDrawing,
  type PictureErrorDetails,
  type PictureFailureKind,
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

export type PictureJob =
  | ({ kind: 'answer'; drawing: PictureDrawing; apiKey: string } & JobBody)
  | ({ kind: 'picture' } & JobBody)
  | { kind: 'compress'; image: Blob };

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

/** Does one job where it is called: in the worker, or on a page that has none. */
export async function doPictureWork(job: PictureJob): Promise<JobOutcome> {
  try {
    switch (job.kind) {
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

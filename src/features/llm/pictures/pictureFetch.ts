/**
 * How a picture's requests fail before the provider answers (issue 41): what the picture
 * request (pictureClient.ts) and the image models' list (imageModelList.ts) both read a
 * rejected fetch as.
 */
import { isAbortError, ProviderUnreachableError } from '../errors';
import { PictureError } from './pictureError';

/** A rejection of the request's own fetch, read: a timeout, an abort, or no answer at all. */
export function failureOfFetch(error: unknown, signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (signal.aborted && (reason as { name?: unknown } | null)?.name === 'TimeoutError') {
    return new PictureError('timeout', 'The picture took longer than its time', { cause: error });
  }
  if (signal.aborted || isAbortError(error)) return error;
  if (error instanceof ProviderUnreachableError) {
    return new PictureError('unreachable', error.message, { cause: error });
  }
  // A connection dropped while the answer was read (fetch's TypeError).
  if (error instanceof TypeError) {
    return new PictureError('unreachable', 'The answer broke off', { cause: error });
  }
  return error;
}

/** Runs a step of the request, its fetch failures read as picture failures. */
export async function step<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PictureError) throw error;
    throw failureOfFetch(error, signal);
  }
}

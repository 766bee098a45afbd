import { PictureError } from '../../src/features/llm';

/**
 * The PictureError a picture request rejects with (issue 41); a picture drawn, or any other
 * error, fails the test that asked.
 */
export async function pictureFailure(promise: Promise<unknown>): Promise<PictureError> {
  const error = await promise.then(
    () => new Error('the picture was drawn'),
    (caught: unknown) => caught,
  );
  if (!(error instanceof PictureError)) throw error;
  return error;
}

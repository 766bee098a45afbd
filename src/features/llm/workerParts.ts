/**
 * What a worker may load of the model client (issue 41, part 6): reading a picture's answer, and
 * the picture's request itself, which the pictures' worker makes only for a preset provider's
 * public API (test/features/llm/localNetwork.test.ts holds it to that). The page imports the
 * same through index.ts.
 */
export {
  readHere,
  type Picture,
  type PictureAnswer,
  type PictureDrawing,
} from './pictures/pictureAnswer';
export {
  PictureError,
  type PictureErrorDetails,
  type PictureFailureKind,
} from './pictures/pictureError';
export { requestPicture, type PictureRequest } from './pictures/pictureClient';

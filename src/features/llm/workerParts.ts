/**
 * What a worker may load of the model client: reading a picture's answer (issue 41, part 6),
 * plain code that makes no request (test/features/llm/localNetwork.test.ts holds the pictures'
 * worker to that). The page imports the same through index.ts.
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

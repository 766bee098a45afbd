/**
 * What a worker may load of the saved stories: compressing a picture for keeping (issue 41,
 * part 4) with the browser's codec, plain code that makes no request. The page imports the same
 * through index.ts.
 */
export {
  PictureCompressionError,
  compressPicture,
  type CompressedPicture,
  type PictureCompressionProblem,
} from './pictures/pictureCompression';
export { browserCodec } from './pictures/browserCodec';

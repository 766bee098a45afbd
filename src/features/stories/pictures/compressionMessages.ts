// What the page and the compression worker (compression.worker.ts) say to each other.
import type { CompressedPicture, PictureCompressionProblem } from './pictureCompression';

export interface CompressionRequest {
  id: number;
  blob: Blob;
}

export type CompressionReply =
  | { id: number; picture: CompressedPicture }
  | { id: number; problem: PictureCompressionProblem; message: string };

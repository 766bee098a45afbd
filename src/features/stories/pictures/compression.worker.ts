// The picture compression in a worker (pictureCompression.ts with the browser's codec): decoding,
// resizing and encoding a picture never take the page's main thread while a story streams.
// Started by compressInBrowser.ts; one message in (an id and the provider's blob), one out.
import { browserCodec } from './browserCodec';
import { type CompressionReply, type CompressionRequest } from './compressionMessages';
import { PictureCompressionError, compressPicture } from './pictureCompression';

const codec = browserCodec();

self.onmessage = async ({ data }: MessageEvent<CompressionRequest>) => {
  let reply: CompressionReply;
  try {
    reply = { id: data.id, picture: await compressPicture(data.blob, codec) };
  } catch (error) {
    reply = {
      id: data.id,
      problem: error instanceof PictureCompressionError ? error.reason : 'notAnImage',
      message: error instanceof Error ? error.message : String(error),
    };
  }
  self.postMessage(reply);
};

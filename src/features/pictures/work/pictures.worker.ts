// The pictures' worker (pictureWork.ts's jobs): a provider's answer read, a picture fetched by
// URL checked, a picture compressed, none of it on the page's main thread while a story streams.
// Started by pictureWorker.ts; one message in (an id and a job), one out (the id and its
// outcome).
import { doPictureWork, type PictureJob } from './pictureWork';

self.onmessage = async ({ data }: MessageEvent<{ id: number; job: PictureJob }>) => {
  self.postMessage({ id: data.id, outcome: await doPictureWork(data.job) });
};

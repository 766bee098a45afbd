// The pictures' worker (pictureWork.ts's jobs): a provider's answer read, a picture fetched by
// URL checked, a picture compressed, none of it on the page's main thread while a story streams.
// Started by pictureWorker.ts; one message in (an id and a job), one out (the id and its
// outcome).
import { doPictureWork, type PictureJob } from './pictureWork';

self.onmessage = async ({ data }: MessageEvent<{ id: number; job: PictureJob }>) => {
  const outcome = await doPictureWork(data.job);
  try {
    self.postMessage({ id: data.id, outcome });
  } catch (error) {
    // An outcome that cannot be sent is told as a failure, so that the page waits no more.
    const message = error instanceof Error ? error.message : String(error);
    self.postMessage({ id: data.id, outcome: { failed: { name: 'Error', message } } });
  }
};

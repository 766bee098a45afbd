// The pictures' worker (pictureWork.ts's jobs): a preset provider's picture asked for and read,
// a Custom server's answer read, a picture fetched by URL checked, a picture compressed, none of
// it on the page's main thread while a story streams. Started by pictureWorker.ts: one message in
// (an id and a job, or the abort of one), one out (the id and its outcome).
import { jobRunner, type JobMessage } from './pictureWork';

const run = jobRunner((reply) => self.postMessage(reply));
self.onmessage = ({ data }: MessageEvent<JobMessage>) => void run(data);

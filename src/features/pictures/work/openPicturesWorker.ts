// The pictures' worker as webpack 5 builds it from `new Worker(new URL(..., import.meta.url))`:
// a chunk of its own, fetched with the first picture; same-origin script, which the CSP's
// script-src 'self' already allows (no worker-src is set). Apart from pictureWorker.ts so that
// tests, which have no bundler, hand that their own. Null where there are no workers.
export const openPicturesWorker = (): Worker | null =>
  typeof Worker === 'undefined'
    ? null
    : new Worker(
        /* webpackChunkName: "picture-work" */
        new URL('./pictures.worker.ts', import.meta.url),
      );

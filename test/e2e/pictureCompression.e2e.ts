/**
 * Issue 41, part 4, in Chromium: the browser's own codec (browserCodec.ts) compresses a
 * provider-sized 1536×1024 PNG, of a busy scene with film grain, to a WebP of 768×512 within
 * 150 KB, on the page and in the compression worker (compression.worker.ts), steps down a
 * scene of heavy grain until it fits, and names a file that is no image. The modules are bundled here with esbuild and run in a page of their own:
 * nothing in the app shows a picture yet.
 */
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';

const PICTURES = path.resolve(__dirname, '../../src/features/stories/pictures');
const ORIGIN = 'http://pictures.test';

function bundle(options: Parameters<typeof buildSync>[0]): string {
  const built = buildSync({
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    ...options,
  });
  return built.outputFiles![0]!.text;
}

const PAGE_SCRIPT = bundle({
  stdin: {
    contents: `
      import { browserCodec } from './browserCodec';
      import { compressPicture } from './pictureCompression';
      globalThis.compressOnPage = (blob) => compressPicture(blob, browserCodec());
    `,
    resolveDir: PICTURES,
    loader: 'ts',
  },
});
const WORKER_SCRIPT = bundle({ entryPoints: [path.join(PICTURES, 'compression.worker.ts')] });

interface Outcome {
  original: { type: string; bytes: number };
  picture?: { mediaType: string; blob: string; bytes: number; width: number; height: number };
  quality?: number;
  encodings?: number;
  magic?: string;
  decoded?: { width: number; height: number };
  problem?: string;
}

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.route(`${ORIGIN}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Pictures</title>',
    }),
  );
  await page.goto(`${ORIGIN}/`);
  await page.addScriptTag({ content: PAGE_SCRIPT });
  await page.evaluate((worker) => {
    const url = URL.createObjectURL(new Blob([worker], { type: 'text/javascript' }));
    Object.assign(globalThis, { workerUrl: url });
  }, WORKER_SCRIPT);
});

afterAll(async () => {
  await browser?.close();
});

/**
 * In the page: a 1536×1024 PNG as an image model draws one (a sky, hills, a hundred shapes,
 * grain on every pixel), compressed `where`, and what came out.
 */
function compressScene(where: 'page' | 'worker' | 'notAnImage', grainSize = 24): Promise<Outcome> {
  return page.evaluate(
    async ({ where, grainSize }) => {
      let seed = 41;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const canvas = new OffscreenCanvas(1536, 1024);
      const context = canvas.getContext('2d')!;
      const sky = context.createLinearGradient(0, 0, 0, 1024);
      sky.addColorStop(0, '#1d2b53');
      sky.addColorStop(0.6, '#c2703d');
      sky.addColorStop(1, '#2b1d14');
      context.fillStyle = sky;
      context.fillRect(0, 0, 1536, 1024);
      for (let index = 0; index < 120; index += 1) {
        context.fillStyle = `hsl(${random() * 360} 50% ${20 + random() * 50}%)`;
        context.beginPath();
        context.arc(random() * 1536, random() * 1024, 10 + random() * 120, 0, Math.PI * 2);
        context.fill();
      }
      const pixels = context.getImageData(0, 0, 1536, 1024);
      for (let index = 0; index < pixels.data.length; index += 4) {
        const grain = (random() - 0.5) * grainSize;
        for (let channel = index; channel < index + 3; channel += 1) {
          pixels.data[channel] = (pixels.data[channel] ?? 0) + grain;
        }
      }
      context.putImageData(pixels, 0, 0);
      const png =
        where === 'notAnImage'
          ? new Blob(['<html>not a picture</html>'], { type: 'image/png' })
          : await canvas.convertToBlob({ type: 'image/png' });
      const original = { type: png.type, bytes: png.size };

      type Reply = {
        picture?: {
          blob: Blob;
          mediaType: string;
          bytes: number;
          width: number;
          height: number;
          quality: number;
          encodings: number;
        };
        problem?: string;
      };
      const { workerUrl, compressOnPage } = globalThis as unknown as {
        workerUrl: string;
        compressOnPage: (blob: Blob) => Promise<NonNullable<Reply['picture']>>;
      };
      let reply: Reply;
      if (where === 'worker') {
        const worker = new Worker(workerUrl);
        reply = await new Promise<Reply>((resolve) => {
          worker.onmessage = ({ data }) => resolve(data as Reply);
          worker.postMessage({ id: 1, blob: png });
        });
        worker.terminate();
      } else {
        reply = await compressOnPage(png).then(
          (picture) => ({ picture }),
          (error: { reason?: string }) => ({ problem: error.reason ?? String(error) }),
        );
      }
      if (!reply.picture) return { original, problem: reply.problem };
      const { blob, quality, encodings, ...picture } = reply.picture;
      const head = new Uint8Array(await blob.slice(0, 12).arrayBuffer());
      const bitmap = await createImageBitmap(blob);
      return {
        original,
        picture: { ...picture, blob: blob.type },
        quality,
        encodings,
        magic: String.fromCharCode(...head.subarray(0, 4), ...head.subarray(8, 12)),
        decoded: { width: bitmap.width, height: bitmap.height },
      };
    },
    { where, grainSize },
  );
}

test.each(['page', 'worker'] as const)(
  'a 1536×1024 PNG becomes a WebP of 768×512 within 150 KB (on the %s)',
  async (where) => {
    const outcome = await compressScene(where);
    console.log(`Compressed on the ${where}:`, JSON.stringify(outcome));

    // The original is what a provider sends: far more than a kept picture may weigh.
    expect(outcome.original.type).toBe('image/png');
    expect(outcome.original.bytes).toBeGreaterThan(1_000_000);
    expect(outcome.picture).toMatchObject({
      mediaType: 'image/webp',
      blob: 'image/webp',
      width: 768,
      height: 512,
    });
    expect(outcome.picture!.bytes).toBeLessThanOrEqual(150 * 1024);
    expect(outcome.magic).toBe('RIFFWEBP');
    expect(outcome.decoded).toEqual({ width: 768, height: 512 });
  },
);

test('a scene of heavy grain steps down in quality (or size) until it fits 150 KB', async () => {
  const outcome = await compressScene('page', 160);
  console.log('Compressed with heavy grain:', JSON.stringify(outcome));

  expect(outcome.encodings).toBeGreaterThan(1);
  expect(outcome.picture?.mediaType).toBe('image/webp');
  expect(outcome.picture!.bytes).toBeLessThanOrEqual(150 * 1024);
  expect(outcome.magic).toBe('RIFFWEBP');
});

test('a file that is no image is named so', async () => {
  expect(await compressScene('notAnImage')).toMatchObject({ problem: 'notAnImage' });
});

/**
 * Issue 41, parts 4 and 6, in Chromium: the pictures' jobs (features/pictures/work) as the
 * browser runs them. The browser's own codec compresses a provider-sized 1536×1024 PNG, of a
 * busy scene with film grain, to a WebP of 768×512 within 150 KB, on the page and in the
 * pictures' worker (pictures.worker.ts), steps down a scene of heavy grain until it fits, and
 * names a file that is no image; the worker reads a provider's answer from the fetched
 * response's blob, so the page's script never holds its bytes, and draws a preset provider's
 * picture and compresses it in one job, so the page gets the kept picture alone. The
 * modules are bundled here with esbuild and run in a page of their own.
 */
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { solidPng } from '../fixtures/fakeImages/png';
import { launchBrowser } from './support/browser';

const WORK = path.resolve(__dirname, '../../src/features/pictures/work');
const ORIGIN = 'http://pictures.test';

function bundle(options: Parameters<typeof buildSync>[0]): string {
  const built = buildSync({
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    // The features' public APIs name their views too: their style sheets are no worker's.
    loader: { '.css': 'empty' },
    ...options,
  });
  return built.outputFiles![0]!.text;
}

const PAGE_SCRIPT = bundle({
  stdin: {
    contents: `
      import { doPictureWork } from './pictureWork';
      import { providerById } from '../../llm';
      globalThis.doPictureWork = doPictureWork;
      globalThis.providerById = providerById;
    `,
    resolveDir: WORK,
    loader: 'ts',
  },
});
const WORKER_SCRIPT = bundle({ entryPoints: [path.join(WORK, 'pictures.worker.ts')] });
/** A provider's answer as OpenAI's images API sends it: the picture as base64 in JSON. */
const PICTURE = solidPng(1536, 1024);
const ANSWER = JSON.stringify({ created: 1, data: [{ b64_json: PICTURE.toString('base64') }] });

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
    /\/answer$|\/v1\/images\/generations$/.test(route.request().url())
      ? route.fulfill({ contentType: 'application/json', body: ANSWER })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Pictures</title>' }),
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

      type Compressed = {
        blob: Blob;
        mediaType: string;
        bytes: number;
        width: number;
        height: number;
        quality: number;
        encodings: number;
      };
      type Outcome = { compressed?: Compressed; failed?: { compression?: string } };
      const { workerUrl, doPictureWork } = globalThis as unknown as {
        workerUrl: string;
        doPictureWork: (job: unknown) => Promise<Outcome>;
      };
      const job = { kind: 'compress', image: png };
      let outcome: Outcome;
      if (where === 'worker') {
        const worker = new Worker(workerUrl);
        outcome = await new Promise<Outcome>((resolve) => {
          worker.onmessage = ({ data }) => resolve((data as { outcome: Outcome }).outcome);
          worker.postMessage({ id: 1, job });
        });
        worker.terminate();
      } else {
        outcome = await doPictureWork(job);
      }
      const reply = { picture: outcome.compressed, problem: outcome.failed?.compression };
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

test("the worker reads a provider's answer from the response's blob", async () => {
  const read = await page.evaluate(async () => {
    const { workerUrl } = globalThis as unknown as { workerUrl: string };
    const response = await fetch('/answer');
    const job = {
      kind: 'answer',
      drawing: 'images-api',
      apiKey: 'k',
      body: await response.blob(),
      headers: [...response.headers],
    };
    const worker = new Worker(workerUrl);
    type Read = { answer?: { picture?: { image: Blob; mediaType: string } } };
    const outcome = await new Promise<Read>((resolve) => {
      worker.onmessage = ({ data }) => resolve((data as { outcome: Read }).outcome);
      worker.postMessage({ id: 1, job });
    });
    worker.terminate();
    const picture = outcome.answer?.picture;
    const head = picture ? [...new Uint8Array(await picture.image.slice(0, 4).arrayBuffer())] : [];
    return {
      mediaType: picture?.mediaType,
      type: picture?.image.type,
      bytes: picture?.image.size,
      head,
    };
  });

  expect(read).toEqual({
    mediaType: 'image/png',
    type: 'image/png',
    bytes: PICTURE.length,
    head: [...PICTURE.subarray(0, 4)],
  });
});

test("a preset provider's picture drawn and compressed in one job of the worker", async () => {
  const kept = await page.evaluate(async (origin) => {
    const { workerUrl, providerById } = globalThis as unknown as {
      workerUrl: string;
      providerById: (id: string) => Record<string, unknown>;
    };
    const job = {
      kind: 'draw',
      compress: true,
      // OpenAI's preset, its address this page's (the fake answer's route): same origin.
      request: {
        provider: { ...providerById('openai'), baseUrl: `${origin}/v1` },
        apiKey: 'sk-proj-picture0123456789abcd',
        model: 'gpt-image-1',
        prompt: 'A harbour at dusk',
        size: 'landscape',
      },
    };
    type Kept = { compressed?: { blob: Blob; mediaType: string; width: number; height: number } };
    const worker = new Worker(workerUrl);
    const replies: string[] = [];
    type Outcome = Kept & { picture?: unknown; failed?: unknown };
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      worker.onerror = (event) => reject(new Error(`the worker failed: ${event.message}`));
      worker.onmessage = ({ data }) => {
        const reply = data as { started?: true; drawn?: unknown; outcome?: Kept };
        replies.push(reply.started ? 'started' : reply.drawn ? 'drawn' : 'outcome');
        if (reply.outcome) resolve(reply.outcome);
      };
      worker.postMessage({ id: 1, job });
    });
    worker.terminate();
    const compressed = outcome.compressed;
    const head = compressed ? new Uint8Array(await compressed.blob.slice(0, 12).arrayBuffer()) : [];
    return {
      replies,
      raw: 'picture' in outcome,
      failed: outcome.failed ?? null,
      kept: compressed && {
        mediaType: compressed.mediaType,
        type: compressed.blob.type,
        width: compressed.width,
        height: compressed.height,
        magic: String.fromCharCode(...head.slice(0, 4), ...head.slice(8, 12)),
      },
    };
  }, ORIGIN);

  expect(kept).toEqual({
    // The provider's PNG is handed over once drawn (the page compresses it if the worker is lost
    // meanwhile); the outcome is the kept WebP alone.
    replies: ['started', 'drawn', 'outcome'],
    raw: false,
    failed: null,
    kept: {
      mediaType: 'image/webp',
      type: 'image/webp',
      width: 768,
      height: 512,
      magic: 'RIFFWEBP',
    },
  });
});

/**
 * @jest-environment node
 */
/**
 * The pictures' work (features/pictures/work) as the page's picture client uses it: a picture
 * drawn (work.draw), the whole way the page's goes: a preset provider's request made by a job,
 * a Custom server's (and one given its own fetch) made here with its answer gathered as a blob
 * within its bound and read by a job; each outcome (a failure too) plain data, made back into
 * the error it was. Each test runs twice: with a worker whose jobs run in this thread (the
 * worker's own jobRunner), every message structured-cloned as between threads, and with none (as
 * on a page whose worker would not start). In Chromium, the worker itself:
 * test/e2e/pictureCompression.e2e.ts.
 */
import {
  MAX_ANSWER_BYTES,
  PICTURE_TIMEOUT_MS,
  PictureError,
  providerById,
  type PictureRequest,
} from '../../../src/features/llm';
import {
  doPictureWork,
  errorOf,
  jobRunner,
  type JobMessage,
} from '../../../src/features/pictures/work/pictureWork';
import { pictureWork, type PictureWork } from '../../../src/features/pictures/work/pictureWorker';
import {
  SAFETY_TRIGGER,
  solidPng,
  startFakeImageServer,
  type FakeImageServer,
  type FakeImageServerOptions,
} from '../../fixtures/fakeImages/server';
import { PictureCompressionError } from '../../../src/features/stories';
import { STOP_TIMEOUT_MS } from '../../support/timeouts';
import { pictureFailure as failure } from '../../support/pictureFailure';

const KEY = 'sk-proj-picture0123456789abcd';
const PROMPT = 'The opening scene of a story (High Fantasy): a lantern-lit harbour at dusk.';

let server: FakeImageServer | undefined;
/** The work the tests of a `describe.each` below go through. */
let work: PictureWork;

/** Every message the page posted to the last in-thread worker. */
let posted: JobMessage[] = [];

/**
 * A worker as the page sees one, its jobs done in this thread by the worker's own runner, each
 * message cloned as it crosses.
 */
async function inThreadWorker(): Promise<Worker | null> {
  let onmessage: ((event: { data: unknown }) => void) | null = null;
  const run = jobRunner((reply) => onmessage?.({ data: structuredClone(reply) }));
  posted = [];
  const fake = {
    set onmessage(listener: typeof onmessage) {
      onmessage = listener;
    },
    onerror: null,
    postMessage(data: JobMessage) {
      posted.push(data);
      void run(structuredClone(data));
    },
    terminate() {},
  };
  return fake as unknown as Worker;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
}, STOP_TIMEOUT_MS);

async function drawn(
  options: Omit<FakeImageServerOptions, 'validKeys'>,
  provider: 'openai' | 'together' | 'openrouter',
  extra: Partial<PictureRequest> = {},
) {
  server = await startFakeImageServer({ validKeys: [KEY], ...options });
  return work.draw({
    provider: { ...providerById(provider), baseUrl: server.url },
    apiKey: KEY,
    model: '',
    prompt: PROMPT,
    size: 'landscape',
    signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS),
    ...extra,
  });
}

/** A gpt-image picture asked of OpenAI's preset at `baseUrl` (the fake image server's). */
const gptImageRequest = (
  baseUrl: string,
  signal = AbortSignal.timeout(PICTURE_TIMEOUT_MS),
): PictureRequest => ({
  provider: { ...providerById('openai'), baseUrl },
  apiKey: KEY,
  model: 'gpt-image-1',
  prompt: PROMPT,
  size: 'landscape',
  signal,
});

const bytesOf = async (blob: Blob) => Buffer.from(await blob.arrayBuffer());

/** A gpt-image picture asked of OpenAI's preset, answered by `fetch`, read by the work. */
const answeredBy = (fetch: typeof globalThis.fetch) =>
  work.draw({
    provider: providerById('openai'),
    apiKey: KEY,
    model: 'gpt-image-1',
    prompt: PROMPT,
    size: 'landscape',
    signal: AbortSignal.timeout(10_000),
    fetch,
  });

const noWorker = async (): Promise<Worker | null> => null;

describe.each([
  ['in a worker', inThreadWorker],
  ['on the page', noWorker],
])('%s', (_where, openWorker) => {
  beforeEach(() => {
    work = pictureWork(openWorker);
  });

  test("reads a gpt-image answer's base64 into its PNG", async () => {
    const picture = await drawn({ profile: 'openai' }, 'openai', { model: 'gpt-image-1' });

    expect(picture.mediaType).toBe('image/png');
    expect((await bytesOf(picture.image)).equals(solidPng(1536, 1024))).toBe(true);
  });

  test('fetches a picture answered by URL once, and reads it as a job too', async () => {
    const picture = await drawn({ profile: 'together', answerWithUrl: true }, 'together', {
      model: 'black-forest-labs/FLUX.1-schnell',
    });

    expect((await bytesOf(picture.image)).equals(solidPng(1024, 768))).toBe(true);
    expect(server!.pictureFetches).toEqual([{ path: '/imgproxy/img1' }]);
  });

  test.each([
    ['html', 'notAnImage'],
    ['huge', 'tooLarge'],
    ['hugeUnsized', 'tooLarge'],
  ] as const)(
    'refuses a URL that serves %s as %s, whether its bound or the job refuses it',
    async (served, kind) => {
      const error = await failure(
        drawn({ profile: 'together', answerWithUrl: true, served }, 'together', {
          model: 'black-forest-labs/FLUX.1-schnell',
        }),
      );

      expect(error.kind).toBe(kind);
    },
  );

  test('reads a chat reply the safety filter stopped as refused, and a data: URL as its picture', async () => {
    const refused = await failure(
      drawn({ profile: 'openrouter' }, 'openrouter', {
        model: 'google/gemini-2.5-flash-image',
        prompt: `A ${SAFETY_TRIGGER}`,
      }),
    );
    await server?.close();
    const picture = await drawn({ profile: 'openrouter' }, 'openrouter', {
      model: 'google/gemini-2.5-flash-image',
    });

    expect(refused.kind).toBe('refused');
    expect((await bytesOf(picture.image)).equals(solidPng(1248, 832))).toBe(true);
  });

  test('an answer that runs past its bound unannounced is cancelled there, refused as too large', async () => {
    let sent = 0;
    let cancelled = false;
    // Up to 40 MB in 64 KB chunks, no Content-Length: as a chunked or compressed body comes.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(65));
        if (sent > 40 * 1024 * 1024) controller.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await failure(answeredBy(() => Promise.resolve(new Response(endless))));

    expect(error.kind).toBe('tooLarge');
    expect(cancelled).toBe(true);
    expect(sent).toBeLessThan(MAX_ANSWER_BYTES + 4 * 65_536);
  });

  test("an answer whose connection breaks off is the picture's unreachable", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data":[{"b64_json":"iVBOR'));
        controller.error(new TypeError('network error'));
      },
    });
    const fetchBroken: typeof fetch = () => Promise.resolve(new Response(broken));

    const error = await failure(answeredBy(fetchBroken));

    expect(error.kind).toBe('unreachable');
  });
});

describe('where a picture is asked from', () => {
  beforeEach(() => {
    work = pictureWork(inThreadWorker);
  });

  test("a preset provider's in the worker; a Custom server's from the page, read in the worker", async () => {
    const preset = await drawn({ profile: 'openai' }, 'openai', { model: 'gpt-image-1' });
    const asPreset = posted.map((message) => ('job' in message ? message.job.kind : 'abort'));
    await server?.close();
    posted.length = 0;
    server = await startFakeImageServer({ validKeys: [KEY], profile: 'openai' });
    const custom = await work.draw({
      provider: providerById('custom'),
      baseUrl: server.url,
      apiKey: KEY,
      model: 'gpt-image-1',
      prompt: PROMPT,
      size: 'landscape',
      signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS),
    });
    const asCustom = posted.map((message) => ('job' in message ? message.job.kind : 'abort'));

    expect(asPreset).toEqual(['draw']);
    // The page asked the player's server; the worker only read its answer.
    expect(asCustom).toEqual(['answer']);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/images/generations']);
    for (const picture of [preset, custom]) {
      expect((await bytesOf(picture.image)).equals(solidPng(1536, 1024))).toBe(true);
    }
  });

  test('a picture given up while the worker asks for it: its request stopped there, the page not kept waiting', async () => {
    server = await startFakeImageServer({ validKeys: [KEY], profile: 'openai', delayMs: 60_000 });
    const signals: AbortSignal[] = [];
    const realFetch = globalThis.fetch;
    const fetchSpy = jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.signal) signals.push(init.signal);
        return realFetch(input, init);
      });
    try {
      const controller = new AbortController();
      const drawing = work.draw(gptImageRequest(server.url, controller.signal));
      // The provider has the request (and holds its answer back).
      while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      const error = await drawing.then(
        () => null,
        (rejected: unknown) => rejected,
      );

      expect((error as DOMException).name).toBe('AbortError');
      expect(posted.map((message) => ('abort' in message ? 'abort' : message.job.kind))).toEqual([
        'draw',
        'abort',
      ]);
      // The worker's own request was stopped.
      expect(signals).toHaveLength(1);
      expect(signals[0]!.aborted).toBe(true);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

describe('a picture to keep (work.drawKept)', () => {
  const drawKept = async () => {
    server = await startFakeImageServer({ validKeys: [KEY], profile: 'openai' });
    return work.drawKept(gptImageRequest(server.url));
  };
  const jobs = () =>
    posted.map((message) =>
      'job' in message
        ? {
            kind: message.job.kind,
            ...('compress' in message.job ? { compress: message.job.compress } : {}),
          }
        : 'abort',
    );
  const isProvidersPicture = async (blob: Blob | undefined) =>
    blob !== undefined && (await bytesOf(blob)).equals(solidPng(1536, 1024));

  test('drawn by a job, then compressed on the page, where the page has no OffscreenCanvas', async () => {
    work = pictureWork(inThreadWorker);
    const error = await drawKept().then(
      () => null,
      (rejected: unknown) => rejected,
    );

    // The draw was the worker's; the compression, with no OffscreenCanvas (so none in the
    // worker either, as the page judges it), the page's, whose decoder (none in Node) could not
    // read the picture.
    expect(jobs()).toEqual([{ kind: 'draw', compress: false }]);
    expect(error).toBeInstanceOf(PictureCompressionError);
    expect((error as PictureCompressionError).reason).toBe('notAnImage');
  });

  describe('with an OffscreenCanvas', () => {
    // Node has no canvas: the browser's decoder and encoder, as the codec calls them, stand in
    // (in Chromium, the real ones: test/e2e/pictureCompression.e2e.ts).
    const globals = globalThis as Record<string, unknown>;
    const before = {
      createImageBitmap: globals.createImageBitmap,
      canvas: globals.OffscreenCanvas,
    };
    let decoded: Blob[] = [];
    beforeEach(() => {
      decoded = [];
      globals.createImageBitmap = async (blob: Blob) => {
        decoded.push(blob);
        return { width: 1536, height: 1024, close() {} };
      };
      globals.OffscreenCanvas = class {
        constructor(
          readonly width: number,
          readonly height: number,
        ) {}
        getContext = () => ({ drawImage() {}, fillRect() {} });
        convertToBlob = async ({ type }: { type: string }) =>
          new Blob([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), new Uint8Array(2048)], { type });
      };
    });
    afterEach(() => {
      globals.createImageBitmap = before.createImageBitmap;
      globals.OffscreenCanvas = before.canvas;
    });

    test('drawn and compressed in one job of the worker', async () => {
      work = pictureWork(inThreadWorker);
      const kept = await drawKept();

      expect(jobs()).toEqual([{ kind: 'draw', compress: true }]);
      expect(kept).toMatchObject({ mediaType: 'image/webp', width: 768, height: 512 });
      // What the worker compressed is the provider's picture itself.
      expect(decoded).toHaveLength(1);
      expect(await isProvidersPicture(decoded[0])).toBe(true);
    });

    test('drawn and compressed on the page, where there is no worker', async () => {
      work = pictureWork(noWorker);
      const kept = await drawKept();

      expect(kept).toMatchObject({ mediaType: 'image/webp', width: 768, height: 512 });
      expect(await isProvidersPicture(decoded[0])).toBe(true);
      expect(server!.requests).toHaveLength(1);
    });

    test('a worker lost while it compresses leaves its picture to the page: compressed there, never drawn twice', async () => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      const replies: string[] = [];
      const losingWorker = async (): Promise<Worker | null> => {
        const fake = {
          onmessage: null as ((event: { data: unknown }) => void) | null,
          onmessageerror: null as (() => void) | null,
          onerror: null,
          postMessage(data: JobMessage) {
            posted.push(data);
            void run(structuredClone(data));
          },
          terminate() {},
        };
        const run = jobRunner((reply) => {
          replies.push(Object.keys(reply).find((key) => key !== 'id')!);
          if ('outcome' in reply) return; // lost by then: its outcome never reaches the page
          fake.onmessage?.({ data: structuredClone(reply) });
          // The picture is drawn and being compressed: the worker is lost now.
          if ('drawn' in reply) fake.onmessageerror?.();
        });
        return fake as unknown as Worker;
      };
      posted = [];
      work = pictureWork(losingWorker);
      try {
        const kept = await drawKept();

        expect(replies.slice(0, 2)).toEqual(['started', 'drawn']);
        expect(warn).toHaveBeenCalledWith(
          'The pictures worker failed; the page does its work',
          'a reply could not be read',
        );
        expect(kept).toMatchObject({ mediaType: 'image/webp', width: 768, height: 512 });
        expect(server!.requests).toHaveLength(1);
        // Compressed by the worker (lost) and by the page, both the provider's picture.
        expect(decoded).toHaveLength(2);
        expect(await isProvidersPicture(decoded[1])).toBe(true);
      } finally {
        warn.mockRestore();
      }
    });

    test('a worker that fails to load before it asks: the page draws and compresses the picture', async () => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      const failingWorker = async (): Promise<Worker | null> => {
        const fake = {
          onmessage: null,
          onmessageerror: null,
          onerror: null as ((event: { message: string }) => void) | null,
          postMessage(data: JobMessage) {
            posted.push(data);
            queueMicrotask(() => fake.onerror?.({ message: 'the script did not load' }));
          },
          terminate() {},
        };
        return fake as unknown as Worker;
      };
      posted = [];
      work = pictureWork(failingWorker);
      try {
        const kept = await drawKept();

        expect(jobs()).toEqual([{ kind: 'draw', compress: true }]);
        expect(kept).toMatchObject({ mediaType: 'image/webp', width: 768, height: 512 });
        expect(server!.requests).toHaveLength(1);
        expect(decoded).toHaveLength(1);
      } finally {
        warn.mockRestore();
      }
    });
  });
});

test('a worker lost after it asked for a picture: the picture fails, and is not asked for again', async () => {
  server = await startFakeImageServer({ validKeys: [KEY], profile: 'openai', delayMs: 60_000 });
  let lose = () => {};
  const losingWorker = async (): Promise<Worker | null> => {
    const asked: number[] = [];
    const fake = {
      onmessage: null as ((event: { data: unknown }) => void) | null,
      onmessageerror: null as (() => void) | null,
      onerror: null,
      postMessage(data: JobMessage) {
        if ('job' in data) asked.push(data.id);
        void run(structuredClone(data));
      },
      // The worker's requests end with it.
      terminate() {
        for (const id of asked) void run({ id, abort: true });
      },
    };
    const run = jobRunner((reply) => fake.onmessage?.({ data: structuredClone(reply) }));
    lose = () => fake.onmessageerror?.();
    return fake as unknown as Worker;
  };
  work = pictureWork(losingWorker);
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const drawing = failure(work.draw(gptImageRequest(server.url)));
    // The provider has the request; then a reply of the worker's cannot be read.
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    lose();
    const error = await drawing;

    expect(error.kind).toBe('unreachable');
    expect(server.requests).toHaveLength(1);
  } finally {
    warn.mockRestore();
  }
});

test('a failed job is plain data, made back into the same error', async () => {
  const notJson = new Blob(['<html>busy</html>']);
  const outcome = await doPictureWork({
    kind: 'answer',
    drawing: 'images-api',
    apiKey: KEY,
    body: notJson,
    headers: [],
  });

  // What crosses to the page from the worker: a structured clone.
  const across = structuredClone(outcome);
  if (!('failed' in across)) throw new Error('the job did not fail');
  const error = errorOf(across.failed);
  expect(error).toBeInstanceOf(PictureError);
  expect([(error as PictureError).kind, error.message]).toEqual([
    'notAnImage',
    'The answer is not JSON: <html>busy</html>',
  ]);
});

test('errors of the stream and of an abort cross as what they were', () => {
  const broken = errorOf({ name: 'TypeError', message: 'network error' });
  const aborted = errorOf({ name: 'AbortError', message: 'The operation was aborted' });

  expect(broken).toBeInstanceOf(TypeError);
  expect(broken.message).toBe('network error');
  expect(aborted).toBeInstanceOf(DOMException);
  expect(aborted.name).toBe('AbortError');
});

test('a worker that fails to load hands its job back to the page, and is sent no more', async () => {
  let posted = 0;
  const failingWorker = async (): Promise<Worker | null> => {
    const fake = {
      onmessage: null,
      onmessageerror: null,
      onerror: null as ((event: { message: string }) => void) | null,
      postMessage() {
        posted += 1;
        // As a worker script that cannot load: its error comes after the message was posted.
        setTimeout(() => fake.onerror?.({ message: 'the script did not load' }), 0);
      },
      terminate() {},
    };
    return fake as unknown as Worker;
  };
  work = pictureWork(failingWorker);
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const first = await drawn({ profile: 'openai' }, 'openai', { model: 'gpt-image-1' });
    await server?.close();
    const second = await drawn({ profile: 'openai' }, 'openai', { model: 'gpt-image-1' });

    expect((await bytesOf(first.image)).equals(solidPng(1536, 1024))).toBe(true);
    expect((await bytesOf(second.image)).equals(solidPng(1536, 1024))).toBe(true);
    expect(posted).toBe(1);
    expect(warn).toHaveBeenCalledWith(
      'The pictures worker failed; the page does its work',
      'the script did not load',
    );
  } finally {
    warn.mockRestore();
  }
});

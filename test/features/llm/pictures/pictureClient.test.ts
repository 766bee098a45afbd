/**
 * @jest-environment node
 */
import {
  PICTURE_TIMEOUT_MS,
  requestPicture,
  type PictureRequest,
} from '../../../../src/features/llm/pictures/pictureClient';
import { fetchImageModelList } from '../../../../src/features/llm/pictures/imageModelList';
import { imageModelsOf } from '../../../../src/features/llm/pictures/imageModels';
import { providerById } from '../../../../src/features/llm/providers';
import {
  SAFETY_TRIGGER,
  solidPng,
  startFakeImageServer,
  type FakeImageServer,
  type FakeImageServerOptions,
} from '../../../fixtures/fakeImages/server';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../../support/timeouts';
import { pictureFailure as failure } from '../../../support/pictureFailure';

const KEY = 'sk-proj-picture0123456789abcd';
const PROMPT = 'The opening scene of a story (High Fantasy): a lantern-lit harbour at dusk.';

let server: FakeImageServer | undefined;

async function start(options: Omit<FakeImageServerOptions, 'validKeys'>) {
  server = await startFakeImageServer({ validKeys: [KEY], ...options });
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
}, STOP_TIMEOUT_MS);

/** The preset with the fake in the provider's place. */
const playedBy = (fake: FakeImageServer, provider: Parameters<typeof providerById>[0]) => ({
  ...providerById(provider),
  baseUrl: fake.url,
});

const ask = (
  fake: FakeImageServer,
  provider: 'openai' | 'together' | 'openrouter' | 'custom',
  extra: Partial<PictureRequest> = {},
) =>
  requestPicture({
    provider: playedBy(fake, provider),
    apiKey: KEY,
    model: '',
    prompt: PROMPT,
    size: 'landscape',
    signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS),
    ...extra,
  });

const bytesOf = async (blob: Blob) => Buffer.from(await blob.arrayBuffer());

describe("OpenAI's images API", () => {
  beforeEach(() => start({ profile: 'openai' }), SERVER_TIMEOUT_MS);

  it('draws a PNG from base64, asked without response_format', async () => {
    const picture = await ask(server!, 'openai', { model: 'gpt-image-1' });

    expect(picture.mediaType).toBe('image/png');
    expect(picture.image.type).toBe('image/png');
    expect((await bytesOf(picture.image)).equals(solidPng(1536, 1024))).toBe(true);
    expect(picture.revisedPrompt).toBeUndefined();
    expect(server!.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/images/generations',
      headers: { authorization: `Bearer ${KEY}` },
      body: { model: 'gpt-image-1', prompt: PROMPT, n: 1, size: '1536x1024', quality: 'low' },
    });
    expect(server!.requests.at(-1)!.body).not.toHaveProperty('response_format');
  });

  it('asks each shape in a size the GPT image models take', async () => {
    const square = await ask(server!, 'openai', { model: 'gpt-image-2', size: 'square' });
    const portrait = await ask(server!, 'openai', { model: 'gpt-image-2', size: 'portrait' });

    expect((await bytesOf(square.image)).equals(solidPng(1024, 1024))).toBe(true);
    expect((await bytesOf(portrait.image)).equals(solidPng(1024, 1536))).toBe(true);
  });

  it('reads a refused key as keyRefused, in OpenAI words, without the key', async () => {
    const error = await failure(
      ask(server!, 'openai', { model: 'gpt-image-1', apiKey: 'sk-wrong-key-123456' }),
    );

    expect(error.kind).toBe('keyRefused');
    expect(error.status).toBe(401);
    expect(error.providerMessage).toMatch(/^Incorrect API key provided: sk-\*+3456\./);
    expect(error.message).not.toContain('sk-wrong-key-123456');
  });

  it('reads a retired or unknown model as retired', async () => {
    const dallE = await failure(ask(server!, 'openai', { model: 'dall-e-3' }));
    const unknown = await failure(ask(server!, 'openai', { model: 'gpt-image-9' }));

    expect([dallE.kind, dallE.status, dallE.code]).toEqual(['retired', 404, 'model_not_found']);
    expect(dallE.providerMessage).toContain('`dall-e-3` has been deprecated');
    expect(unknown.kind).toBe('retired');
    expect(unknown.providerMessage).toContain('`gpt-image-9` does not exist');
  });

  it('reads a content-policy refusal as refused, with its words', async () => {
    const error = await failure(
      ask(server!, 'openai', { model: 'gpt-image-1', prompt: `A ${SAFETY_TRIGGER} at dawn` }),
    );

    expect([error.kind, error.status, error.code]).toEqual(['refused', 400, 'moderation_blocked']);
    expect(error.providerMessage).toContain('rejected by the safety system');
  });
});

describe("OpenAI's account rules", () => {
  it("reads the organisation-verification 403 as unverified, after the request's checks", async () => {
    await start({ profile: 'openai', unverifiedModels: ['gpt-image-1'] });

    const error = await failure(ask(server!, 'openai', { model: 'gpt-image-1' }));
    const other = await ask(server!, 'openai', { model: 'gpt-image-1-mini' });

    expect([error.kind, error.status]).toEqual(['unverified', 403]);
    expect(error.providerMessage).toMatch(
      /^Your organization must be verified to use the model `gpt-image-1`\./,
    );
    expect(other.mediaType).toBe('image/png');
  });

  it("reads the per-minute image limit's wait from its words", async () => {
    let now = 1_000;
    await start({ profile: 'openai', imagesPerMinute: 1, now: () => now });

    await ask(server!, 'openai', { model: 'gpt-image-1' });
    now = 13_000;
    const error = await failure(ask(server!, 'openai', { model: 'gpt-image-1' }));

    expect([error.kind, error.status, error.code]).toEqual([
      'rateLimited',
      429,
      'rate_limit_exceeded',
    ]);
    expect(error.retryAfterMs).toBe(48_000);
    expect(error.providerMessage).toContain('images per minute (IPM): Limit 1');
  });

  it('gives a timeout its own kind, and a caller who gave up their abort', async () => {
    await start({ profile: 'openai', delayMs: 5_000 });

    const slow = await failure(
      ask(server!, 'openai', { model: 'gpt-image-1', signal: AbortSignal.timeout(100) }),
    );
    const controller = new AbortController();
    const cancelled = ask(server!, 'openai', { model: 'gpt-image-1', signal: controller.signal });
    controller.abort();

    expect(slow.kind).toBe('timeout');
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe("Together's images API", () => {
  it('draws a PNG from base64, asked in pixels', async () => {
    await start({ profile: 'together' });

    const picture = await ask(server!, 'together', { model: 'black-forest-labs/FLUX.1-schnell' });

    expect((await bytesOf(picture.image)).equals(solidPng(1024, 768))).toBe(true);
    expect(server!.requests.at(-1)!.body).toEqual({
      model: 'black-forest-labs/FLUX.1-schnell',
      prompt: PROMPT,
      n: 1,
      width: 1024,
      height: 768,
      response_format: 'base64',
      output_format: 'png',
    });
    expect(server!.pictureFetches).toEqual([]);
  });

  it('fetches a picture answered by URL exactly once, without the key', async () => {
    await start({ profile: 'together', answerWithUrl: true });

    const picture = await ask(server!, 'together', { model: 'black-forest-labs/FLUX.1-schnell' });

    expect((await bytesOf(picture.image)).equals(solidPng(1024, 768))).toBe(true);
    expect(server!.pictureFetches).toEqual([{ path: '/imgproxy/img1' }]);
  });

  it.each([
    ['html', 'notAnImage'],
    ['mislabelled', 'notAnImage'],
    ['huge', 'tooLarge'],
    ['hugeUnsized', 'tooLarge'],
  ] as const)('refuses a URL that serves %s (%s), fetched once', async (served, kind) => {
    await start({ profile: 'together', answerWithUrl: true, served });

    const error = await failure(
      ask(server!, 'together', { model: 'black-forest-labs/FLUX.1-schnell' }),
    );

    expect(error.kind).toBe(kind);
    expect(server!.pictureFetches).toHaveLength(1);
  });

  it('reads a model that does not draw as retired, and a refused prompt as refused', async () => {
    await start({ profile: 'together' });

    const chat = await failure(ask(server!, 'together', { model: 'openai/gpt-oss-120b' }));
    const refused = await failure(
      ask(server!, 'together', {
        model: 'black-forest-labs/FLUX.1-schnell',
        prompt: `${SAFETY_TRIGGER} in the square`,
      }),
    );

    expect([chat.kind, chat.providerMessage]).toEqual([
      'retired',
      'openai/gpt-oss-120b is not an image model',
    ]);
    expect([refused.kind, refused.code]).toEqual(['refused', 'content_policy_violation']);
  });
});

describe("OpenRouter's image output", () => {
  beforeEach(() => start({ profile: 'openrouter' }), SERVER_TIMEOUT_MS);

  it('draws the data URL of a chat completion asked for images', async () => {
    const picture = await ask(server!, 'openrouter', { model: 'google/gemini-2.5-flash-image' });

    expect((await bytesOf(picture.image)).equals(solidPng(1248, 832))).toBe(true);
    expect(server!.requests.at(-1)).toMatchObject({
      path: '/api/v1/chat/completions',
      body: {
        model: 'google/gemini-2.5-flash-image',
        messages: [{ role: 'user', content: PROMPT }],
        modalities: ['image', 'text'],
        image_config: { aspect_ratio: '3:2' },
      },
    });
  });

  it('asks an image-only model for images alone, as its docs say', async () => {
    const picture = await ask(server!, 'openrouter', {
      model: 'black-forest-labs/flux.2-pro',
      drawsOnly: true,
    });
    const both = await failure(
      ask(server!, 'openrouter', { model: 'black-forest-labs/flux.2-pro' }),
    );

    expect(picture.mediaType).toBe('image/png');
    expect(both.kind).toBe('retired');
  });

  it('reads a text-only model as one that cannot draw', async () => {
    const error = await failure(ask(server!, 'openrouter', { model: 'openai/gpt-oss-120b' }));

    expect([error.kind, error.status]).toEqual(['retired', 404]);
    expect(error.providerMessage).toBe(
      'No endpoints found that support the requested output modalities: image, text',
    );
  });

  it("reads an unknown id as retired, in OpenRouter's words", async () => {
    const error = await failure(ask(server!, 'openrouter', { model: 'acme/painter-9' }));

    expect([error.kind, error.providerMessage]).toEqual([
      'retired',
      'acme/painter-9 is not a valid model ID',
    ]);
  });

  it('reads a reply the safety filter stopped as refused', async () => {
    const error = await failure(
      ask(server!, 'openrouter', {
        model: 'google/gemini-2.5-flash-image',
        prompt: `A ${SAFETY_TRIGGER}`,
      }),
    );

    expect(error.kind).toBe('refused');
  });

  it('lists the image models only when asked with output_modalities=image', async () => {
    const provider = playedBy(server!, 'openrouter');
    const list = await fetchImageModelList({
      provider,
      apiKey: KEY,
      signal: AbortSignal.timeout(10_000),
    });

    expect(server!.requests.at(-1)!.query).toBe('?output_modalities=image');
    expect(imageModelsOf(provider, list).map((model) => model.id)).toEqual([
      'black-forest-labs/flux.2-pro',
      'google/gemini-2.5-flash-image',
      'google/gemini-3.1-flash-image',
    ]);
  });
});

describe('answers the game does not take', () => {
  const answering =
    (body: unknown, calls: string[]): typeof fetch =>
    (url) => {
      calls.push(String(url));
      return Promise.resolve(
        new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } }),
      );
    };
  const request = (fetchWith: typeof fetch): PictureRequest => ({
    provider: providerById('openai'),
    apiKey: KEY,
    model: 'gpt-image-1',
    prompt: PROMPT,
    size: 'square',
    signal: AbortSignal.timeout(10_000),
    fetch: fetchWith,
  });

  it('never fetches a picture URL from another origin over plain http', async () => {
    const calls: string[] = [];
    const body = { data: [{ url: 'http://pictures.example/1.png' }] };

    const error = await failure(requestPicture(request(answering(body, calls))));

    expect(error.kind).toBe('notAnImage');
    expect(calls).toEqual(['https://api.openai.com/v1/images/generations']);
  });

  it('refuses base64 that is not a picture, and an answer with no picture', async () => {
    const html = Buffer.from('<html></html>').toString('base64');
    const notPicture = await failure(
      requestPicture(request(answering({ data: [{ b64_json: html }] }, []))),
    );
    const empty = await failure(requestPicture(request(answering({ data: [] }, []))));

    expect([notPicture.kind, empty.kind]).toEqual(['notAnImage', 'notAnImage']);
  });

  it('reads a server that cannot be reached as unreachable', async () => {
    const refused: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));

    const error = await failure(requestPicture(request(refused)));

    expect(error.kind).toBe('unreachable');
  });

  it('says so when the provider draws nothing', async () => {
    const error = await failure(
      requestPicture({ ...request(answering({}, [])), provider: providerById('groq') }),
    );

    expect(error.kind).toBe('retired');
  });
});

/**
 * @jest-environment node
 *
 * The model dropdown's list (issue 11): each provider's own GET /models, as the strict fake
 * serves it in that provider's shape, read down to the models that chat.
 */
import {
  ProviderError,
  chatModelsOf,
  fetchModelList,
  modelNaming,
  providerById,
  settleModel,
  type ProviderId,
} from '../../../src/features/llm';
import {
  GROQ_RETIRED_MODELS,
  chatModelIds,
  profileCatalogue,
  startFakeModelServer,
  type FakeModelServer,
  type ProfileId,
} from '../../fixtures/fakeModelServer';
import { routedFetch } from '../../fixtures/routedFetch';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../support/timeouts';

// The tests here start fake model servers (the afterAll closes them): the limit of a test and of a
// hook in this file, for a loaded two-core machine (test/support/timeouts.ts).
jest.setTimeout(SERVER_TIMEOUT_MS);

const KEY = 'key-for-the-fake-0123456789';
const servers: FakeModelServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())), STOP_TIMEOUT_MS);

async function listOf(preset: ProviderId, profile: ProfileId, apiKey = KEY) {
  const server = await startFakeModelServer({ profile, validKeys: [KEY] });
  servers.push(server);
  const provider = providerById(preset);
  const editable = provider.editableBaseUrl;
  return {
    server,
    answer: fetchModelList({
      provider,
      apiKey,
      signal: new AbortController().signal,
      ...(editable ? { baseUrl: server.url } : { fetch: routedFetch(provider.baseUrl, server) }),
    }),
  };
}

describe('chatModelsOf', () => {
  test.each([
    ['groq', 'groq'],
    ['openai', 'openai'],
    ['openrouter', 'openrouter'],
    ['together', 'together'],
    ['local', 'local'],
    ['custom', 'lenient'],
  ] as const)(
    '%s: exactly the chat models of the listing, the curated ones first',
    async (preset, profile) => {
      const { server, answer } = await listOf(preset, profile);
      const models = chatModelsOf(providerById(preset), await answer);

      expect(models.map((model) => model.id).sort()).toEqual([...chatModelIds(profile)].sort());
      // Speech, images, embeddings and safety classifiers are never offered.
      const notChat = profileCatalogue(profile).filter((model) => !model.chat);
      expect(notChat.length).toBeGreaterThan(0);
      for (const model of notChat) expect(models.map((entry) => entry.id)).not.toContain(model.id);
      // The preset's own models that the provider lists come first, in the preset's order.
      const curated = providerById(preset).models.map((model) => model.id);
      const listedCurated = models.map((model) => model.id).filter((id) => curated.includes(id));
      expect(models.slice(0, listedCurated.length).map((model) => model.id)).toEqual(
        curated.filter((id) => listedCurated.includes(id)),
      );
      // The key went with the request (Groq, OpenAI, OpenRouter, Together need it).
      expect(server.requests[0]).toMatchObject({ method: 'GET' });
      expect(server.requests[0]?.path).toMatch(/\/models$/);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    },
  );

  test("the default provider's curated default is served today", async () => {
    const { answer } = await listOf('groq', 'groq');
    const ids = chatModelsOf(providerById('groq'), await answer).map((model) => model.id);
    expect(ids[0]).toBe(providerById('groq').defaultModel);
    for (const retired of GROQ_RETIRED_MODELS) expect(ids).not.toContain(retired);
  });

  test('a listing it cannot read yields no models, not an error', () => {
    const groq = providerById('groq');
    expect(chatModelsOf(groq, null)).toEqual([]);
    expect(chatModelsOf(groq, { data: 'nope' })).toEqual([]);
    expect(chatModelsOf(groq, [{ id: 7 }, 'x', null, { id: '' }])).toEqual([]);
    expect(chatModelsOf(groq, { data: [{ id: 'a' }, { id: 'a' }] })).toEqual([
      { id: 'a', label: 'a' },
    ]);
  });

  test('a refused key on the list is a ProviderError that says so', async () => {
    const { answer } = await listOf('groq', 'groq', 'wrong-key');
    const error = await answer.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).isKeyRefused).toBe(true);
  });
});

describe('settleModel', () => {
  const groq = providerById('groq');
  const listed = [
    { id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B (default)' },
    { id: 'openai/gpt-oss-20b', label: 'GPT-OSS 20B' },
  ];

  test('a listed model stays', () => {
    expect(settleModel(groq, 'openai/gpt-oss-20b', listed)).toEqual({
      model: 'openai/gpt-oss-20b',
      replaced: false,
    });
  });

  test('a retired model is replaced by the curated default', () => {
    expect(settleModel(groq, 'llama-3.3-70b-versatile', listed)).toEqual({
      model: 'openai/gpt-oss-120b',
      replaced: true,
    });
  });

  test('without the default listed, the first listed model stands in', () => {
    expect(settleModel(groq, 'gone', [listed[1]!])).toEqual({
      model: 'openai/gpt-oss-20b',
      replaced: true,
    });
  });

  test('an empty list (no /models) decides nothing; a blank choice is the default', () => {
    expect(settleModel(groq, 'whatever', [])).toEqual({ model: 'whatever', replaced: false });
    expect(settleModel(groq, ' ', listed)).toEqual({
      model: 'openai/gpt-oss-120b',
      replaced: false,
    });
  });
});

describe('what each provider lists that cannot chat', () => {
  test("OpenAI's Responses-only and completions-only models are left out; others keep theirs", () => {
    const listing = {
      data: [
        'gpt-5-mini',
        'gpt-5-pro',
        'o1-pro',
        'o3-pro-2025-06-10',
        'o3-deep-research',
        'gpt-3.5-turbo-instruct',
        'o3',
      ].map((id) => ({ id, object: 'model' })),
    };
    expect(chatModelsOf(providerById('openai'), listing).map((model) => model.id)).toEqual([
      'gpt-5-mini',
      'o3',
    ]);
    // An instruct model elsewhere is a chat model.
    const openrouter = { data: [{ id: 'meta-llama/llama-3.3-70b-instruct' }] };
    expect(chatModelsOf(providerById('openrouter'), openrouter)).toHaveLength(1);
  });
});

describe('settleModel where the player types the id', () => {
  test("Ollama's tagged listing serves the untagged name the player knows", () => {
    const listed = [{ id: 'llama3.2:latest', label: 'llama3.2:latest' }];
    expect(settleModel(providerById('local'), 'llama3.2', listed)).toEqual({
      model: 'llama3.2',
      replaced: false,
    });
  });

  test('a typed id the provider does not list is replaced by the default, as a picked one is', () => {
    const listed = [{ id: 'openai/gpt-oss-120b', label: 'GPT-OSS 120B' }];
    for (const preset of ['openrouter', 'together', 'local', 'custom'] as const) {
      expect(settleModel(providerById(preset), 'someone/retired-model', listed)).toEqual({
        model: 'openai/gpt-oss-120b',
        replaced: true,
      });
    }
  });
});

describe('modelNaming: what the key screen names as the model (issue 38, part 4)', () => {
  const openai = providerById('openai');
  const list = (...ids: string[]) => ids.map((id) => ({ id, label: id }));
  /** The OpenAI account of the issue: its list has no gpt-5.6-terra. */
  const withoutTerra = list('gpt-5.6-sol', 'gpt-5.4-mini', 'gpt-5.4', 'gpt-4.1-mini');

  test('before the list is known, the default is described by its family, never named by an id', () => {
    for (const unknown of [null, []]) {
      expect(modelNaming(openai, '', unknown)).toEqual({
        playing: null,
        default: null,
        newestOf: 'GPT-5.x mini',
      });
      // A preset that names no family: described all the same ("chosen from the list").
      expect(modelNaming(providerById('groq'), ' ', unknown)).toEqual({
        playing: null,
        default: null,
        newestOf: null,
      });
    }
  });

  test("before the list is known, the player's own choice is shown as chosen", () => {
    expect(modelNaming(openai, 'gpt-5.6-sol', null).playing).toBe('gpt-5.6-sol');
  });

  test('once it is known: the model the key check will play, which settleModel chooses', () => {
    const naming = modelNaming(openai, '', withoutTerra);
    expect(naming).toEqual({
      playing: 'gpt-5.4-mini',
      default: 'gpt-5.4-mini',
      newestOf: 'GPT-5.x mini',
    });
    expect(naming.playing).toBe(settleModel(openai, '', withoutTerra).model);
    // With gpt-5.6-terra listed, it is the newest of the family.
    expect(modelNaming(openai, '', list('gpt-5.4-mini', 'gpt-5.6-terra')).playing).toBe(
      'gpt-5.6-terra',
    );
  });

  test('a listed choice plays; a saved model the list no longer holds shows the one in its place', () => {
    expect(modelNaming(openai, 'gpt-5.6-sol', withoutTerra)).toMatchObject({
      playing: 'gpt-5.6-sol',
      default: 'gpt-5.4-mini',
    });
    expect(modelNaming(openai, 'gpt-5.6-terra', withoutTerra).playing).toBe('gpt-5.4-mini');
  });

  test('a default from a later family is not called the newest of the first', () => {
    expect(modelNaming(openai, '', list('gpt-5.6-sol', 'gpt-4.1-mini'))).toEqual({
      playing: 'gpt-4.1-mini',
      default: 'gpt-4.1-mini',
      newestOf: null,
    });
  });
});

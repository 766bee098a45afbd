/**
 * The key check with the provider's own model list, errors that say what happened, and what
 * the session learns about the provider (issue 11): each flow run as its worker with expectSaga
 * over the root reducer, ending with it (run(false)), against strict fake providers, each
 * reached through its preset's own host (the provider is the edge these tests are about).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer, type RootState } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import { KEY_CHECK_TIMEOUT_MS, flowFor, gameActions, stageOf } from '../../../src/features/game';
import {
  baseUrlOf,
  chatModelsOf,
  keyFingerprint,
  modelNaming,
  providerById,
  selectListedModels,
  type ProviderSessionState,
  httpModelClient,
} from '../../../src/features/llm';
import type { SettingsState } from '../../../src/features/settings';
import {
  REASONING_TEXT,
  startFakeModelServer,
  type FakeModelServer,
  type FakeModel,
  type ProfileId,
} from '../../fixtures/fakeModelServer';
import { OPENAI_ACCOUNT_WITHOUT_TERRA, openAiModelsOn } from '../../fixtures/fakeProviders';
import {
  PLAYING_GAME,
  appStateWith,
  type GameAt,
  keyProblemOf,
  turnProblemOf,
} from '../../fixtures/games';
import { routedFetch } from '../../fixtures/routedFetch';
import { MemoryStorage } from '../../fixtures/testWallet';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';
import { SERVER_TIMEOUT_MS } from '../../support/timeouts';

// Every test here starts a fake model server (the afterEach closes it): the limit of a test and of a
// hook in this file, for a loaded two-core machine (test/support/timeouts.ts).
jest.setTimeout(SERVER_TIMEOUT_MS);

const KEY = 'key-for-the-fake-0123456789';

/** The actions that reached the store, in order. */
let dispatched: string[] = [];
const recordingReducer = (state: RootState | undefined, action: UnknownAction) => {
  dispatched.push(action.type);
  return rootReducer(state, action);
};

let server: FakeModelServer;
beforeEach(() => {
  dispatched = [];
});
afterEach(() => server?.close());

interface Setup {
  settings: Partial<SettingsState>;
  game?: GameAt;
  session?: Partial<ProviderSessionState>;
  fetch?: typeof fetch;
  /**
   * The saga context's clock; by default a virtual one on which the key check's 30 s limit,
   * racing a real server the clock cannot see, is held.
   */
  clock?: VirtualClock;
}

/** A strict fake of this provider; the presets that cannot be pointed elsewhere are routed. */
async function startProvider(profile: ProfileId, models?: readonly FakeModel[]) {
  server = await startFakeModelServer({ profile, validKeys: [KEY], ...(models && { models }) });
  return server;
}

function saga({
  settings,
  game = {},
  session = {},
  fetch,
  clock = virtualClock({ held: (ms) => ms === KEY_CHECK_TIMEOUT_MS }),
}: Setup) {
  const provider = providerById(settings.provider);
  const fetchImpl =
    fetch ?? (provider.editableBaseUrl ? undefined : routedFetch(provider.baseUrl, server));
  const state = appStateWith({ apiKey: KEY, ...game }, settings);
  state.providerSession = { ...state.providerSession, ...session };
  return {
    /**
     * The flow `action` starts, run as its worker from the state the store reduced it to (the
     * set-up's, or where an earlier flow left the game).
     */
    flowFrom: (action: UnknownAction, from: RootState = state) =>
      expectSaga(flowFor(action)!)
        .withReducer(recordingReducer, recordingReducer(from, action))
        .provide({
          getContext(name: string, next: () => unknown) {
            if (name === 'random') return seededRng(3);
            if (name === 'clock') return clock;
            if (name === 'connectPage') return null;
            if (name === 'storage') return new MemoryStorage();
            if (name === 'model') return httpModelClient(fetchImpl);
            return next();
          },
        } as never),
  };
}

const chatRequests = () => server.requests.filter((request) => request.method === 'POST');

describe("the key check reads the provider's own list first", () => {
  test('a retired saved model is replaced by the default, with a notice, before anything asks for it', async () => {
    await startProvider('groq');
    const result = await saga({
      settings: { provider: 'groq', model: 'llama-3.3-70b-versatile' },
    })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    const state = result.storeState;
    expect(stageOf(state.game.turn)).toBe('loadOrCreate');
    expect(state.settings.model).toBe('openai/gpt-oss-120b');
    expect(state.providerSession.modelReplaced).toEqual({
      provider: 'groq',
      from: 'llama-3.3-70b-versatile',
      to: 'openai/gpt-oss-120b',
    });
    const listed = selectListedModels(state)?.models.map((model: { id: string }) => model.id);
    expect(listed?.slice(0, 3)).toEqual([
      'openai/gpt-oss-120b',
      'openai/gpt-oss-20b',
      'qwen/qwen3.6-27b',
    ]);
    expect(listed).not.toContain('whisper-large-v3');
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/openai/v1/models' });
    expect(chatRequests().map((request) => request.body.model)).toEqual(['openai/gpt-oss-120b']);
  });

  test('an account without gpt-5.6-terra, the model left to the default: its newest GPT-5.x mini plays, with no notice', async () => {
    await startProvider(
      'openai-2026-12-12',
      openAiModelsOn('2026-12-12', OPENAI_ACCOUNT_WITHOUT_TERRA),
    );
    const result = await saga({ settings: { provider: 'openai', model: '' } })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    const state = result.storeState;
    expect(stageOf(state.game.turn)).toBe('loadOrCreate');
    expect(chatRequests().map((request) => request.body.model)).toEqual(['gpt-5.4-mini']);
    expect(state.settings.model).toBe('gpt-5.4-mini');
    expect(state.providerSession.modelReplaced).toBeNull();
  });

  test('the list read while the key was typed is the one the check goes by: the model the key screen named is checked, and the list is not read again', async () => {
    await startProvider(
      'openai-2026-12-12',
      openAiModelsOn('2026-12-12', OPENAI_ACCOUNT_WITHOUT_TERRA),
    );
    const openai = providerById('openai');
    const models = chatModelsOf(openai, {
      data: openAiModelsOn('2026-12-12', OPENAI_ACCOUNT_WITHOUT_TERRA).map((model) => ({
        id: model.id,
        ...model.listing,
      })),
    });
    const named = modelNaming(openai, '', models).playing;
    const source = {
      provider: 'openai',
      baseUrl: baseUrlOf(openai),
      keyFingerprint: keyFingerprint(KEY),
    };
    const result = await saga({
      settings: { provider: 'openai', model: '' },
      session: { modelList: { status: 'read', source, models } },
    })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    expect(named).toBe('gpt-5.4-mini');
    expect(
      server.requests.map((request) => `${request.method} ${String(request.body?.model)}`),
    ).toEqual([`POST ${named}`]);
    expect(result.storeState.settings.model).toBe(named);
    expect(result.storeState.providerSession.modelReplaced).toBeNull();
  });

  test("a wrong key is an invalid key, with the provider's words beneath", async () => {
    await startProvider('groq');
    const result = await saga({ settings: { provider: 'groq' } })
      .flowFrom(gameActions.apiKeySubmitted('gsk_wrong'))
      .run(false);

    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'invalidApiKey',
    });
    expect(keyProblemOf(result.storeState.game)).toMatchObject({
      reason: 'invalidApiKey',
      providerMessage: 'Invalid API Key',
      status: 401,
    });
    // The list was refused with the key: the key screen may say so before the next check.
    expect(result.storeState.providerSession.modelList).toMatchObject({
      status: 'unreadable',
      keyRefused: true,
    });
  });

  test('a key that may chat but not list models (403 on /models) is accepted', async () => {
    await startProvider('openai-2026-12-12');
    const noListing: typeof fetch = (input, init) =>
      String(input).endsWith('/models')
        ? Promise.resolve(
            Response.json(
              { error: { message: 'Missing scopes: api.model.read.', code: null } },
              { status: 403 },
            ),
          )
        : routedFetch('https://api.openai.com/v1', server)(input, init);
    const result = await saga({ settings: { provider: 'openai' }, fetch: noListing })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    expect(stageOf(result.storeState.game.turn)).toBe('loadOrCreate');
    // No list to choose from: the built-in default, a current model.
    expect(chatRequests().map((request) => request.body.model)).toEqual([
      providerById('openai').defaultModel,
    ]);
  });

  test('a forbidden key (403 on the chat check too) is an invalid key', async () => {
    await startProvider('openai');
    const forbidden: typeof fetch = () =>
      Promise.resolve(
        Response.json({ error: { message: 'Project is not allowed.' } }, { status: 403 }),
      );
    const result = await saga({ settings: { provider: 'openai' }, fetch: forbidden })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'invalidApiKey',
    });
    expect(keyProblemOf(result.storeState.game)?.status).toBe(403);
  });

  test('a server without a readable list keeps the built-in one and checks the chosen model', async () => {
    await startProvider('local');
    const withoutList: typeof fetch = (input, init) =>
      String(input).endsWith('/models')
        ? Promise.resolve(new Response('404 page not found', { status: 404 }))
        : fetch(input, init);
    const result = await saga({
      settings: { provider: 'local', model: 'llama3.2', baseUrl: server.url },
      fetch: withoutList,
    })
      .flowFrom(gameActions.apiKeySubmitted(''))
      .run(false);

    expect(stageOf(result.storeState.game.turn)).toBe('loadOrCreate');
    expect(selectListedModels(result.storeState)).toBeNull();
    expect(chatRequests().map((request) => request.body.model)).toEqual(['llama3.2']);
  });

  test('without a list, a model the provider does not serve is named as such, with its words', async () => {
    await startProvider('local');
    const withoutList: typeof fetch = (input, init) =>
      String(input).endsWith('/models')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : fetch(input, init);
    const result = await saga({
      settings: { provider: 'local', model: 'llama2-never-pulled', baseUrl: server.url },
      fetch: withoutList,
    })
      .flowFrom(gameActions.apiKeySubmitted(''))
      .run(false);

    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'modelUnavailable',
    });
    expect(keyProblemOf(result.storeState.game)).toMatchObject({
      reason: 'modelUnavailable',
      model: 'llama2-never-pulled',
      status: 404,
      providerMessage: expect.stringContaining('llama2-never-pulled'),
    });
  });

  test('a local server that cannot be reached is unreachable, with the CORS hint to give', async () => {
    await startProvider('local');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const result = await saga({
      settings: { provider: 'local', model: 'llama3.2', baseUrl: `http://127.0.0.1:${port}/v1` },
    })
      .flowFrom(gameActions.apiKeySubmitted(''))
      .run(false);

    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'providerUnreachable',
    });
    expect(keyProblemOf(result.storeState.game)).toMatchObject({
      reason: 'providerUnreachable',
      origin: `http://127.0.0.1:${port}`,
      ownServer: true,
    });
  });

  test('a provider that never answers the key check is named as not answering in time', async () => {
    await startProvider('groq');
    const silent: typeof fetch = () => new Promise<Response>(() => undefined);
    // Nothing but the clock can end this wait: the limit runs out on it, in no wall time.
    const clock = virtualClock();
    const result = await saga({ settings: { provider: 'groq' }, fetch: silent, clock })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    expect(clock.now()).toBe(KEY_CHECK_TIMEOUT_MS);
    expect(result.storeState.game.keyCheck).toMatchObject({
      status: 'refused',
      error: 'keyCheckFailed',
    });
    expect(keyProblemOf(result.storeState.game)).toMatchObject({
      reason: 'noAnswer',
      provider: 'groq',
    });
    expect(result.storeState.game.keyCheck.status).not.toBe('checking');
  });

  test('a rate-limited key check accepts the key: the game waits out 429s itself', async () => {
    await startProvider('groq');
    server.enqueue({ status: 429, retryAfter: '30' });
    const result = await saga({ settings: { provider: 'groq' } })
      .flowFrom(gameActions.apiKeySubmitted(KEY))
      .run(false);

    expect(stageOf(result.storeState.game.turn)).toBe('loadOrCreate');
  });
});

describe('a turn with a reasoning model', () => {
  test('shows a quiet thinking state, never its reasoning, and asks for low effort', async () => {
    await startProvider('groq');
    const result = await saga({
      settings: { provider: 'groq', model: 'openai/gpt-oss-120b' },
      game: PLAYING_GAME,
    })
      .flowFrom(gameActions.choiceMade({ index: 1 }))
      .put(gameActions.reasoningStreamed())
      .put.like({ action: { type: gameActions.segmentStreamed.type } })
      .run(false);

    const { game } = result.storeState;
    // Told once, however many pieces the thinking came in.
    const told = dispatched.filter((type) => type === gameActions.reasoningStreamed.type);
    expect(told).toHaveLength(1);
    // The turn is over, and nothing of the thinking is left on screen.
    expect(game.turn).toEqual({ phase: 'choosing' });
    expect(JSON.stringify(game.story.storyLog)).not.toContain(REASONING_TEXT.slice(0, 30));
    for (const request of chatRequests()) {
      expect(request.body).toMatchObject({ reasoning_effort: 'low' });
    }
    const streamed = chatRequests().find((request) => request.body.stream === true);
    expect(streamed?.body).not.toHaveProperty('response_format');
  });

  test('a feature the provider stops accepting is refused once, then not asked for again (kept with the settings)', async () => {
    // The provider no longer takes reasoning_effort for this model (it answers 400 naming it).
    await startProvider('groq', [{ id: 'openai/gpt-oss-120b', chat: true, kind: 'chat' }]);
    // A segment without its summary, so that the summary is asked for on its own afterwards.
    server.enqueue({
      json: {
        storySegment: 'The gate swings open onto a courtyard of statues.',
        options: [{ text: 'Cross the courtyard', risk: 'medium', alignment: 'neutral' }],
      },
    });
    const game = saga({
      settings: { provider: 'groq', model: 'openai/gpt-oss-120b' },
      game: PLAYING_GAME,
    });
    const turn = await game
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .put.like({
        action: {
          type: 'settings/modelLessonLearned',
          payload: { lesson: { feature: 'reasoning' } },
        },
      })
      .put(gameActions.summaryMissing())
      .run(false);
    const result = await game
      .flowFrom(gameActions.summaryMissing(), turn.storeState)
      .put.like({ action: { type: gameActions.summaryStored.type } })
      .run(false);

    const { game: played, settings } = result.storeState;
    expect(played.turn).toEqual({ phase: 'choosing' });
    expect(played.story.storyLog).toHaveLength(3);
    expect(Object.values(settings.modelLessons)).toEqual([[{ feature: 'reasoning' }]]);
    // The segment was asked twice (with, then without); the summary only without.
    const bodies = chatRequests().map((request) => request.body);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toHaveProperty('reasoning_effort');
    expect(bodies[1]).not.toHaveProperty('reasoning_effort');
    expect(bodies[2]).not.toHaveProperty('reasoning_effort');
  });

  test('Groq refusing a summary as invalid JSON is a garbled reply, asked again, not a failed turn', async () => {
    await startProvider('groq');
    server.enqueue(
      {
        json: {
          storySegment: 'The gate swings open onto a courtyard of statues.',
          options: [
            { text: 'Cross the courtyard', risk: 'medium', alignment: 'neutral' },
            { text: 'Wait and listen', risk: 'low', alignment: 'moral' },
          ],
        },
      },
      { json: 'I summarise: the gate opened' },
    );
    const game = saga({
      settings: { provider: 'groq', model: 'openai/gpt-oss-120b' },
      game: PLAYING_GAME,
    });
    const turn = await game.flowFrom(gameActions.choiceMade({ index: 1 })).run(false);
    const result = await game
      .flowFrom(gameActions.summaryMissing(), turn.storeState)
      .put(gameActions.turnRetryScheduled({ reason: 'unreadableReply', attempt: 1, retryAt: null }))
      .run(false);

    expect(result.storeState.game.turn).toEqual({ phase: 'choosing' });
    expect(result.storeState.game.story.storySummary).toHaveLength(2);
    const [, refused] = chatRequests();
    expect(refused?.body.response_format).toEqual({ type: 'json_object' });
  });

  test('a model retired mid-story fails the turn with what happened, not a retry message', async () => {
    await startProvider('groq');
    const result = await saga({
      settings: { provider: 'groq', model: 'llama-3.3-70b-versatile' },
      game: PLAYING_GAME,
    })
      .flowFrom(gameActions.choiceMade({ index: 0 }))
      .run(false);

    expect(result.storeState.game.turn.phase).toBe('failed');
    expect(turnProblemOf(result.storeState.game)).toMatchObject({
      reason: 'modelUnavailable',
      provider: 'groq',
      status: 404,
    });
    expect(chatRequests()).toHaveLength(1);
  });
});

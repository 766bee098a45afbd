/**
 * Issue 38, part 4: the provider's model list read while the key is typed, so that the key
 * screen can name the model that will play before the key is submitted. The worker from the
 * feature's index, run with expectSaga over the root reducer until it ends (run(false)), its
 * waits on a virtual clock (the context's): the typing is a small saga beside it that types on
 * that clock. The key reaches the provider and no action: the store knows it by its
 * fingerprint.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { call, fork, join, put } from 'typed-redux-saga';
import { rootReducer, type RootState } from '../../../src/app/store';
import {
  MODEL_LIST_QUIET_MS,
  ProviderError,
  baseUrlOf,
  keyFingerprint,
  providerById,
  providerSessionActions,
  readModelListAsTyped,
  typedKeyHolder,
  type ModelClient,
  type ModelList,
  type ModelListSource,
  type TypedKey,
} from '../../../src/features/llm';
import { wait } from '../../../src/shared/waits';
import { contextProviders } from '../../support/sagaReplay';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';

const OPENAI = providerById('openai');

/** An account whose list has no gpt-5.6-terra (a project limited to some models). */
const WITHOUT_TERRA = {
  object: 'list',
  data: [
    { id: 'gpt-5.4', object: 'model', created: 1772668800, owned_by: 'system' },
    { id: 'gpt-5.6-sol', object: 'model', created: 1789430400, owned_by: 'system' },
    { id: 'gpt-5.4-mini', object: 'model', created: 1773705600, owned_by: 'system' },
    { id: 'whisper-1', object: 'model', created: 1677532384, owned_by: 'openai-internal' },
  ],
};

interface Asked {
  apiKey: string;
  baseUrl: string | undefined;
  /** Whether the flow aborted the request before it was answered. */
  aborted: boolean;
  at: number;
}

/**
 * A model client whose list answers after `takesMs` on the clock (or with an error), keeping
 * each request it was asked; it is never asked to chat here.
 */
function listingClient(
  clock: VirtualClock,
  answer: unknown | Error,
  takesMs = 0,
): ModelClient & { asked: Asked[] } {
  const asked: Asked[] = [];
  return {
    asked,
    async listModels({ apiKey, baseUrl, signal }) {
      const request: Asked = { apiKey, baseUrl, aborted: false, at: clock.now() };
      asked.push(request);
      signal.addEventListener('abort', () => (request.aborted = true));
      if (takesMs > 0) await clock.sleep(takesMs, signal);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    complete: () => Promise.reject(new Error('not asked to chat')),
    checkKey: () => Promise.reject(new Error('not asked to chat')),
  };
}

/** The key screen's typing: the key held in the page's memory, its fingerprint dispatched. */
function typing(typedKey: TypedKey, provider: string = OPENAI.id) {
  return (apiKey: string) =>
    providerSessionActions.keyTyped({
      provider,
      baseUrl: baseUrlOf(providerById(provider)),
      keyFingerprint: typedKey.hold(apiKey),
    });
}

const sourceOf = (apiKey: string, provider = OPENAI.id): ModelListSource => ({
  provider,
  baseUrl: baseUrlOf(providerById(provider)),
  keyFingerprint: keyFingerprint(apiKey),
});

/** The actions that reached the store, in order. */
let dispatched: UnknownAction[] = [];
const recordingReducer = (state: RootState | undefined, action: UnknownAction) => {
  dispatched.push(action);
  return rootReducer(state, action);
};
beforeEach(() => {
  dispatched = [];
});

interface Run {
  clock: VirtualClock;
  model: ModelClient;
  typedKey: TypedKey;
  /** Each key as typed, and how long the player pauses after it (ms, on the clock). */
  keys: [key: string, pauseMs: number][];
  provider?: string;
  state?: RootState;
}

/** The worker, started by the first key typed, with the player typing the rest beside it. */
function runTyping({ clock, model, typedKey, keys, provider, state }: Run) {
  const typed = typing(typedKey, provider);
  const [[firstKey, firstPause], ...rest] = keys as [[string, number], ...[string, number][]];
  const first = typed(firstKey);
  function* player() {
    const worker = yield* fork(readModelListAsTyped, first);
    yield* call(wait, firstPause);
    for (const [key, pause] of rest) {
      yield* put(typed(key));
      yield* call(wait, pause);
    }
    yield* join(worker);
  }
  const from = state ?? rootReducer(undefined, { type: 'test/start' });
  return expectSaga(player)
    .withReducer(recordingReducer, recordingReducer(from, first))
    .provide(contextProviders({ clock, model, typedKey }))
    .run(false);
}

describe('the model list is read while the key is typed', () => {
  test('once the typing has stopped for 600 ms: one request, with the last key typed', async () => {
    const clock = virtualClock();
    const model = listingClient(clock, WITHOUT_TERRA);
    const typedKey = typedKeyHolder();
    const result = await runTyping({
      clock,
      model,
      typedKey,
      // Pasted in pieces, a pause of 200 ms and 300 ms between them, then nothing more.
      keys: [
        ['sk-proj', 200],
        ['sk-proj-abc', 300],
        ['sk-proj-abcdef', 0],
      ],
    });

    expect(MODEL_LIST_QUIET_MS).toBe(600);
    expect(model.asked).toEqual([
      { apiKey: 'sk-proj-abcdef', baseUrl: OPENAI.baseUrl, aborted: false, at: 500 + 600 },
    ]);
    const list: ModelList = result.storeState.providerSession.modelList;
    expect(list).toMatchObject({ status: 'read', source: sourceOf('sk-proj-abcdef') });
    // Only the models that chat, the preset's own first.
    expect(list.status === 'read' && list.models.map((entry) => entry.id)).toEqual([
      'gpt-5.6-sol',
      'gpt-5.4-mini',
      'gpt-5.4',
    ]);
    expect(dispatched.map((action) => action.type)).toEqual([
      'providerSession/keyTyped',
      'providerSession/keyTyped',
      'providerSession/keyTyped',
      'providerSession/modelListRead',
    ]);
    // The key went to the provider, and into no action: the store knows its fingerprint.
    expect(JSON.stringify(dispatched)).not.toContain('sk-proj');
    expect(JSON.stringify(result.storeState)).not.toContain('sk-proj');
  });

  test('a key typed while the read is under way aborts it, and the new key is read', async () => {
    const clock = virtualClock();
    const model = listingClient(clock, WITHOUT_TERRA, 1000);
    const typedKey = typedKeyHolder();
    const result = await runTyping({
      clock,
      model,
      typedKey,
      keys: [
        ['sk-old', 900],
        ['sk-new', 0],
      ],
    });

    expect(model.asked).toEqual([
      { apiKey: 'sk-old', baseUrl: OPENAI.baseUrl, aborted: true, at: 600 },
      { apiKey: 'sk-new', baseUrl: OPENAI.baseUrl, aborted: false, at: 900 + 600 },
    ]);
    expect(result.storeState.providerSession.modelList).toMatchObject({
      status: 'read',
      source: sourceOf('sk-new'),
    });
  });

  test('a 401 leaves the default described and says the key was refused; nothing is thrown', async () => {
    const clock = virtualClock();
    const refused = new ProviderError(401, 'Incorrect API key provided: sk-wro***');
    const model = listingClient(clock, refused);
    const result = await runTyping({
      clock,
      model,
      typedKey: typedKeyHolder(),
      keys: [['sk-wrong', 0]],
    });

    expect(result.storeState.providerSession.modelList).toEqual({
      status: 'unreadable',
      source: sourceOf('sk-wrong'),
      keyRefused: true,
    });
  });

  test('a list the page may not read (CORS: no answer) is unreadable, and no key is blamed', async () => {
    const clock = virtualClock();
    const model = listingClient(clock, new TypeError('Failed to fetch'));
    const result = await runTyping({
      clock,
      model,
      typedKey: typedKeyHolder(),
      keys: [['sk-a', 0]],
    });

    expect(result.storeState.providerSession.modelList).toMatchObject({
      status: 'unreadable',
      keyRefused: false,
    });
  });

  test('a list already read for this key is not asked again', async () => {
    const clock = virtualClock();
    const model = listingClient(clock, WITHOUT_TERRA);
    const state = rootReducer(
      undefined,
      providerSessionActions.modelListRead({ source: sourceOf('sk-a'), models: [] }),
    );
    await runTyping({ clock, model, typedKey: typedKeyHolder(), keys: [['sk-a', 0]], state });
    expect(model.asked).toEqual([]);
  });

  test("no key, or the player's own server (Local, Custom): nothing is asked before the key check", async () => {
    for (const [provider, key] of [
      ['openai', ''],
      ['local', 'anything'],
      ['custom', 'sk-x'],
    ] as const) {
      const clock = virtualClock();
      const model = listingClient(clock, WITHOUT_TERRA);
      const result = await runTyping({
        clock,
        model,
        typedKey: typedKeyHolder(),
        keys: [[key, 0]],
        provider,
      });
      expect(model.asked).toEqual([]);
      expect(result.storeState.providerSession.modelList).toEqual({ status: 'unknown' });
    }
  });
});

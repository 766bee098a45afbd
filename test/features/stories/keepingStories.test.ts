/**
 * Stories the browser keeps (DESIGN.md): the flow reads whether the browser has promised to keep
 * them, and asks it to with the session's first save, once. The worker runs with expectSaga from
 * the feature's public index, the real root reducer holding the state and a browser that answers
 * as each test says (the saga context's `persistentStorage`); the run ends when the worker does.
 * Then the same through a real store's flows: one question a session, however many saves.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import { makeStore, rootReducer, type AppStore } from '../../../src/app/store';
import {
  keepStories,
  openStoriesDb,
  selectStoragePersistence,
  storiesActions,
  type PersistenceAnswer,
  type PersistentStorage,
} from '../../../src/features/stories';
import { PLAYING_GAME, gameAt } from '../../fixtures/games';
import { contextProviders } from '../../support/sagaReplay';

/** A browser that says `now` when asked what it keeps and `answer` when asked to keep them. */
function browserSaying(now: PersistenceAnswer, answer: PersistenceAnswer = now) {
  const asked: string[] = [];
  const storage: PersistentStorage = {
    persisted: () => {
      asked.push('persisted');
      return Promise.resolve(now);
    },
    persist: () => {
      asked.push('persist');
      return Promise.resolve(answer);
    },
  };
  return { storage, asked };
}

/** A save of the story being played, as the save flow reports it. */
const saved = (id: number) =>
  storiesActions.storySaved({
    id,
    walletAddress: 'anonymous',
    revision: 1,
    lastSaved: '2026-03-01T10:00:00.000Z',
    manual: false,
    storyGeneration: 0,
  });

const initial = rootReducer(undefined, { type: 'test/init' });

/** keepStories alone: the browser's answers provided, these saves made as it starts. */
const keeping = (storage: PersistentStorage, ...saves: ReturnType<typeof saved>[]) =>
  saves
    .reduce(
      (run, save) => run.dispatch(save),
      expectSaga(keepStories)
        .withReducer(rootReducer, initial)
        .provide(contextProviders({ persistentStorage: storage })),
    )
    .run(false);

describe('the first save asks the browser to keep the stories', () => {
  test('granted: the screen learns the browser has promised', async () => {
    const browser = browserSaying('notPersisted', 'persisted');
    const result = await keeping(browser.storage, saved(1));
    expect(result.effects.put?.map((effect) => effect.payload.action)).toEqual([
      storiesActions.storagePersistenceRead('notPersisted'),
      storiesActions.storagePersistenceAnswered('persisted'),
    ]);
    expect(browser.asked).toEqual(['persisted', 'persist']);
    expect(selectStoragePersistence(result.storeState)).toBe('persisted');
  });

  test('refused: the screen learns the browser has not promised', async () => {
    const browser = browserSaying('notPersisted', 'notPersisted');
    const result = await keeping(browser.storage, saved(1));
    expect(result.effects.put?.map((effect) => effect.payload.action)).toEqual([
      storiesActions.storagePersistenceRead('notPersisted'),
      storiesActions.storagePersistenceAnswered('notPersisted'),
    ]);
    expect(browser.asked).toEqual(['persisted', 'persist']);
    expect(selectStoragePersistence(result.storeState)).toBe('notPersisted');
  });

  test('two saves, one question: the flow ends once it has asked', async () => {
    const browser = browserSaying('notPersisted', 'notPersisted');
    await keeping(browser.storage, saved(1), saved(2));
    expect(browser.asked).toEqual(['persisted', 'persist']);
  });

  test('a browser that has promised already is not asked again', async () => {
    const browser = browserSaying('persisted');
    const result = await keeping(browser.storage);
    expect(browser.asked).toEqual(['persisted']);
    expect(selectStoragePersistence(result.storeState)).toBe('persisted');
  });

  test('a browser with no way to promise is not asked, and says so', async () => {
    const browser = browserSaying('unsupported');
    const result = await keeping(browser.storage);
    expect(browser.asked).toEqual(['persisted']);
    expect(selectStoragePersistence(result.storeState)).toBe('unsupported');
  });

  test('a browser whose answer fails leaves nothing said, and is not asked', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const storage: PersistentStorage = {
      persisted: () => Promise.reject(new Error('document is not fully active')),
      persist: jest.fn(),
    };
    const result = await keeping(storage, saved(1));
    expect(result.effects.put).toBeUndefined();
    expect(storage.persist).not.toHaveBeenCalled();
    expect(selectStoragePersistence(result.storeState)).toBe('unknown');
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe("a session's flows", () => {
  let store: AppStore;
  afterEach(() => store?.stop());

  /** Until the store's state passes `check`. */
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      if (check()) return resolve();
      const stop = store.subscribe(() => {
        if (!check()) return;
        stop();
        resolve();
      });
    });

  test('ask with the first save, and not with the saves after it', async () => {
    const browser = browserSaying('notPersisted', 'persisted');
    const factory = new IDBFactory();
    store = makeStore({
      preloadedState: { game: gameAt(PLAYING_GAME) },
      context: {
        openStoriesDb: () => openStoriesDb(factory),
        openTabChannel: () => null,
        persistentStorage: browser.storage,
      },
    });
    // The list shown starts the flows, and they read what the browser keeps: no question yet.
    store.dispatch(storiesActions.savedStoriesRequested());
    await until(() => selectStoragePersistence(store.getState()) === 'notPersisted');
    expect(browser.asked).toEqual(['persisted']);

    store.dispatch(storiesActions.saveRequested());
    await until(() => selectStoragePersistence(store.getState()) === 'persisted');
    expect(browser.asked).toEqual(['persisted', 'persist']);

    for (const expected of [2, 3]) {
      store.dispatch(storiesActions.saveRequested());
      await until(() => store.getState().stories.current?.revision === expected);
    }
    expect(browser.asked).toEqual(['persisted', 'persist']);
  });
});

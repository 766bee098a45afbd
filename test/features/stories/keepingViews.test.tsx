/**
 * @jest-environment jsdom
 */
/**
 * Whether the browser keeps the saved stories, as the saved-stories screen says it (DESIGN.md,
 * "Stories the browser keeps"): the note for each thing the browser may have said, in English
 * and Korean, and then the screen with its flows, where the first save asks the browser.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { screen, waitFor } from '@testing-library/react';
import { makeStore, rootReducer, type AppStore } from '../../../src/app/store';
import type { Language } from '../../../src/engine/types';
import { LoadOrCreateView } from '../../../src/features/game/views/LoadOrCreateView';
import {
  SavedStoriesList,
  StartNewGame,
  initialStoriesState,
  openStoriesDb,
  saveStory,
  storiesActions,
  type PersistenceAnswer,
  type PersistentStorage,
  type StoragePersistence,
  type StoriesDb,
} from '../../../src/features/stories';
import { storyDraftOf } from '../../../src/features/stories/storyRecord';
import { BrowserKeeps } from '../../../src/features/stories/views/BrowserKeeps';
import { CloudSavesSetting } from '../../../src/features/stories/cloud/views/CloudSavesSetting';
import { initialWalletState } from '../../../src/features/wallet';
import { PLAYING_GAME, gameAt } from '../../fixtures/games';
import { verifiedWallet } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';

const WALLET = '0xaaaa000000000000000000000000000000000001';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const MAY_DELETE =
  'This browser may delete your saved stories after a while without a visit (Safari does after 7 days).';
const SAFARI_MAY_DELETE =
  'Safari may delete your saved stories if you do not visit the game for 7 days.';
const PROMISED = 'This browser has promised to keep your saved stories.';
const KEY_GOES_TOO =
  'Your API key is kept in this browser too and would go with them; you would only need to enter it again.';

let store: AppStore | undefined;
afterEach(() => {
  store?.stop();
  store = undefined;
  jest.restoreAllMocks();
});

interface Seen {
  persistence: StoragePersistence;
  cloudSaves?: boolean;
  signedIn?: boolean;
  language?: Language;
  /** With 'Keep my stories with my wallet' above it, as on the screen. */
  withSetting?: boolean;
}

/** The note alone, over a store that knows what the browser said. */
function renderNote({
  persistence,
  cloudSaves = false,
  signedIn = false,
  language = 'en',
  withSetting = false,
}: Seen) {
  const initial = rootReducer(undefined, { type: 'test/init' });
  const rendered = renderWithProviders(
    <>
      {withSetting && <CloudSavesSetting />}
      <BrowserKeeps />
    </>,
    {
      preloadedState: {
        stories: { ...initialStoriesState, persistence },
        settings: { ...initial.settings, cloudSaves },
        wallet: signedIn ? verifiedWallet(WALLET) : initialWalletState,
      },
      language,
    },
  );
  store = rendered.store;
  return rendered;
}

const noteText = () => document.querySelector('.browser-keeps')?.textContent ?? null;

describe('the note on keeping stories', () => {
  test('promised: one calm line, and no warning', async () => {
    renderNote({ persistence: 'persisted' });
    await screen.findByText(PROMISED);
    expect(screen.queryByText(MAY_DELETE)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Keep them with your wallet' })).toBeNull();
  });

  test('not promised, cloud saves off: what may happen, the two ways, and the key, once', async () => {
    renderNote({ persistence: 'notPersisted' });
    await screen.findByText(MAY_DELETE);
    expect(screen.getByText('Two ways to keep them:')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Keep them with your wallet' })).toBeTruthy();
    const exportWay = screen.getByText(/^Export them:/);
    // The export button's own words, as the story's card shows them.
    expect(exportWay.textContent).toBe(
      "Export them: Export JSON on a story's card saves it as a file you can import here again.",
    );
    expect(screen.getByText(KEY_GOES_TOO)).toBeTruthy();
    expect(noteText()!.match(/API key/g)).toHaveLength(1);
    expect(screen.queryByText(PROMISED)).toBeNull();
  });

  test('Keep them with your wallet takes the player to the setting, which stays theirs to turn on', async () => {
    const { user } = renderNote({ persistence: 'notPersisted', withSetting: true });
    await user.click(await screen.findByRole('button', { name: 'Keep them with your wallet' }));
    const setting = screen.getByRole('checkbox', { name: 'Keep my stories with my wallet' });
    expect(document.activeElement).toBe(setting);
    expect((setting as HTMLInputElement).checked).toBe(false);
  });

  test('in Safari, Safari is named', async () => {
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(SAFARI_ON_IPHONE);
    renderNote({ persistence: 'notPersisted' });
    await screen.findByText(SAFARI_MAY_DELETE);
    expect(screen.queryByText(MAY_DELETE)).toBeNull();
  });

  test('cloud saves on with the wallet signed in: the stories are kept there, nothing to warn of', () => {
    renderNote({ persistence: 'notPersisted', cloudSaves: true, signedIn: true });
    expect(noteText()).toBeNull();
  });

  test('cloud saves chosen but no wallet signed in: nothing goes up yet, so the warning stays', async () => {
    renderNote({ persistence: 'notPersisted', cloudSaves: true });
    await screen.findByText(MAY_DELETE);
  });

  test.each(['unknown', 'unsupported'] as const)(
    '%s: the browser has said nothing to tell, and the note says nothing',
    (persistence) => {
      renderNote({ persistence });
      expect(noteText()).toBeNull();
    },
  );

  test('in Korean: the warning, the two ways and the key; and the promise', async () => {
    const { unmount } = renderNote({ persistence: 'notPersisted', language: 'kr' });
    await screen.findByText(
      '이 브라우저는 한동안(Safari는 7일) 방문하지 않으면 저장된 스토리를 삭제할 수 있습니다.',
    );
    expect(screen.getByRole('button', { name: '지갑에 보관하기' })).toBeTruthy();
    expect(screen.getByText(/^내보내기:/).textContent).toContain('JSON 내보내기');
    expect(screen.getByText(/^API 키도 이 브라우저에 보관되어/)).toBeTruthy();
    unmount();
    store?.stop();
    renderNote({ persistence: 'persisted', language: 'kr' });
    await screen.findByText('이 브라우저는 저장된 스토리를 지우지 않고 보관하기로 약속했습니다.');
  });

  test('in Korean, in Safari', async () => {
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(SAFARI_ON_IPHONE);
    renderNote({ persistence: 'notPersisted', language: 'kr' });
    await screen.findByText(
      'Safari는 7일 동안 게임을 방문하지 않으면 저장된 스토리를 삭제할 수 있습니다.',
    );
  });
});

describe('the saved-stories screen, with its flows', () => {
  let factory: IDBFactory;
  let db: StoriesDb;
  beforeEach(async () => {
    factory = new IDBFactory();
    db = await openStoriesDb(factory);
  });
  afterEach(() => db.close());

  /** A browser that has not promised, and answers the first save's question with `answer`. */
  function browserAnswering(answer: PersistenceAnswer) {
    const storage = {
      persisted: jest.fn(() => Promise.resolve<PersistenceAnswer>('notPersisted')),
      persist: jest.fn(() => Promise.resolve(answer)),
    } satisfies PersistentStorage;
    return storage;
  }

  function renderScreen(persistentStorage: PersistentStorage) {
    store = makeStore({
      // A story being played, so Save game has something to save; the list shown beside it.
      preloadedState: { game: gameAt(PLAYING_GAME) },
      context: {
        openStoriesDb: () => openStoriesDb(factory),
        openTabChannel: () => null,
        persistentStorage,
      },
    });
    return renderWithProviders(
      <LoadOrCreateView savedStories={<SavedStoriesList />} startNewGame={<StartNewGame />} />,
      { store },
    );
  }

  test('no saved story yet: nothing said, for nothing is at risk and nothing was asked', async () => {
    const browser = browserAnswering('persisted');
    renderScreen(browser);
    await screen.findByText('No saved stories available');
    await waitFor(() => expect(store!.getState().stories.persistence).toBe('notPersisted'));
    expect(noteText()).toBeNull();
    expect(browser.persist).not.toHaveBeenCalled();
  });

  test('a story kept in a browser that has not promised: the warning; the first save asks, and once granted the screen says so', async () => {
    await saveStory(db, storyDraftOf(gameAt(PLAYING_GAME).story, null), 'anonymous');
    const browser = browserAnswering('persisted');
    renderScreen(browser);
    await screen.findByText(MAY_DELETE);
    expect(browser.persist).not.toHaveBeenCalled();

    store!.dispatch(storiesActions.saveRequested());
    await screen.findByText(PROMISED);
    expect(screen.queryByText(MAY_DELETE)).toBeNull();
    expect(browser.persist).toHaveBeenCalledTimes(1);
  });

  test('refused: the warning stays after the first save', async () => {
    await saveStory(db, storyDraftOf(gameAt(PLAYING_GAME).story, null), 'anonymous');
    const browser = browserAnswering('notPersisted');
    renderScreen(browser);
    await screen.findByText(MAY_DELETE);
    store!.dispatch(storiesActions.saveRequested());
    await waitFor(() => expect(browser.persist).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(store!.getState().stories.current).not.toBeNull());
    expect(screen.getByText(MAY_DELETE)).toBeTruthy();
    expect(screen.queryByText(PROMISED)).toBeNull();
  });
});

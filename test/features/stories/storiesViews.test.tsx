/**
 * @jest-environment jsdom
 */
/**
 * The saved stories as the player meets them on the load-or-create screen, the playing screen
 * and the ending screen: real store, real flows, a fresh fake-indexeddb MyStoriesDB per test.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baseApi } from '../../../src/api';
import { injectBackendApi, makeStore, type AppStore } from '../../../src/app/store';
import type { Language } from '../../../src/engine/types';
import {
  initialGameState,
  initialStory,
  selectGameStage,
  type GameState,
  type Story,
} from '../../../src/features/game';
import { LoadOrCreateView } from '../../../src/features/game/views/LoadOrCreateView';
import {
  LocalStoriesDeletedNote,
  SaveGameButton,
  SavedStoriesList,
  StartNewGame,
  StoriesNotice,
  initialStoriesState,
  listStories,
  openStoriesDb,
  saveStory,
  storiesActions,
  type StoriesDb,
} from '../../../src/features/stories';
import { storyDraftOf, type CurrentRecord } from '../../../src/features/stories/storyRecord';
import { initialWalletState, walletSlice } from '../../../src/features/wallet/walletSlice';
import { fakeTabs } from './fakeTabs';
import { choiceResolved, gameAt, type GameAt } from '../../fixtures/games';
import { verifiedSession } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';

const WALLET = '0xaaaa000000000000000000000000000000000001';
const LONG_PARAGRAPH = Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(' ');

const story: Story = {
  ...initialStory,
  chosenGenre: 'High Fantasy',
  chosenImage: 5,
  chosenCharacter: 'Aria Vale',
  characterBio: 'A cartographer who maps forgotten roads.',
  storyLog: [{ kind: 'paragraph', text: LONG_PARAGRAPH }],
  previousParagraph: LONG_PARAGRAPH,
  options: [{ text: 'Climb', risk: 'high', alignment: 'neutral', traitAlignment: '' }],
  turnCount: 3,
};

/** The story being played: its choices offered, the session's key in. */
const playing: GameState = gameAt({ turn: { phase: 'choosing' }, apiKey: 'sk-session', story });

/** The load-or-create screen, with the story of `playing` still in the state. */
const HOME: GameAt = { turn: { phase: 'home' } };

/** The record the game would save for the story with these changes, as new. */
const draftOf = (changes: Partial<Story> = {}) => storyDraftOf({ ...story, ...changes }, null);

let factory: IDBFactory;
let db: StoriesDb;
let store: AppStore;
/** The screen the game is on. */
const stageOf = () => selectGameStage(store.getState());
beforeEach(async () => {
  factory = new IDBFactory();
  db = await openStoriesDb(factory);
});
afterEach(() => {
  store?.stop();
  db.close();
});

function renderAt(
  { story: changes, ...game }: GameAt,
  ui: React.ReactElement,
  { wallet = WALLET as string | null, language = 'en' as Language } = {},
) {
  store = makeStore({
    preloadedState: {
      game: { ...playing, ...game, story: { ...story, ...changes } },
      wallet: wallet ? { ...initialWalletState, status: 'verified', address: wallet } : undefined,
    },
    context: { openStoriesDb: () => openStoriesDb(factory) },
  });
  // The game's page comes with the backend API (routes.tsx): its Publish reads the cloud list.
  injectBackendApi(baseApi);
  // The stories' flows load with the first list asked for (in the app, with the API key).
  store.dispatch(storiesActions.savedStoriesRequested());
  return renderWithProviders(
    <>
      {ui}
      <StoriesNotice />
    </>,
    { store, language },
  );
}

const loadOrCreate = () => (
  <LoadOrCreateView savedStories={<SavedStoriesList />} startNewGame={<StartNewGame />} />
);

describe('the saved-stories list', () => {
  test('shows each story of this wallet: name, id, time, portrait, 50-word preview', async () => {
    const saved = await saveStory(db, draftOf(), WALLET);
    await saveStory(db, draftOf({ chosenCharacter: 'Not Mine' }), '0xother');
    renderAt(HOME, loadOrCreate());

    const card = await screen.findByRole('article', { name: 'Aria Vale' });
    expect(screen.queryByRole('article', { name: 'Not Mine' })).toBeNull();
    expect(screen.getByText(/Stories saved for wallet/).textContent).toContain('0xaaaa...0001');
    expect(within(card).getByText(`Story #${saved.saved && saved.id}`)).toBeTruthy();
    expect(within(card).getByText(/^Saved /)).toBeTruthy();
    expect(within(card).getByText('Turn 3')).toBeTruthy();
    const preview = within(card).getByText(/^word1 /).textContent!;
    expect(preview.endsWith('word50...')).toBe(true);
    expect(
      within(card).getByRole('img', { name: 'Portrait of Aria Vale' }).getAttribute('src'),
    ).toBe('/characters/5.png');
  });

  test('a story missing part of its log says so, offers no export, and is not opened', async () => {
    const saved = await saveStory(db, draftOf(), WALLET);
    if (!saved.saved) throw new Error('not saved');
    // One entry of its log lost (a browser that cleared part of the site's data, say).
    await db.delete('storyParts', [saved.id, 'storyLog', 0]);
    renderAt(HOME, loadOrCreate());

    const card = await screen.findByRole('article', { name: 'Aria Vale' });
    const damaged = /Part of this saved story is missing or damaged/;
    expect(within(card).getByText(damaged)).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /Export/ })).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: /^Load/ }));
    await waitFor(() => expect(store.getState().stories.notice?.reason).toBe('damaged'));
    expect(stageOf()).toBe('loadOrCreate');
  });

  test('the empty messages: for this wallet, and without a wallet', async () => {
    const { unmount } = renderAt(HOME, loadOrCreate());
    await screen.findByText('No saved stories available for this wallet');
    unmount();
    store.stop();
    renderAt(HOME, loadOrCreate(), { wallet: null });
    await screen.findByText('No saved stories available');
    expect(screen.getByText('Stories saved in this browser without a wallet')).toBeTruthy();
  });

  test("a storage failure shows 'Failed to load stories'; Refresh tries again", async () => {
    const blocked = Object.assign(new Error('blocked'), { name: 'SecurityError' });
    let fail = true;
    ({ store } = renderWithProviders(loadOrCreate(), {
      preloadedState: { game: { ...playing, turn: { phase: 'home' } } },
      context: {
        openStoriesDb: () => (fail ? Promise.reject(blocked) : openStoriesDb(factory)),
      },
    }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load stories');
    expect(alert.textContent).toContain('private window');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('No saved stories available');
  });

  test('Delete asks first: Keep it keeps the story, Yes deletes it and says so', async () => {
    await saveStory(db, draftOf(), WALLET);
    renderAt(HOME, loadOrCreate());
    await userEvent.click(await screen.findByRole('button', { name: "Delete Aria Vale's story" }));
    expect(screen.getByText("Delete Aria Vale's story? This cannot be undone.")).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: "Delete Aria Vale's story" }),
    );
    expect(await listStories(db, WALLET)).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: "Delete Aria Vale's story" }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete it' }));
    await screen.findByText('Story deleted!');
    expect(screen.queryByRole('article', { name: 'Aria Vale' })).toBeNull();
    // The card took the focus with it; it is back on the list.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Refresh' }));
    expect(await listStories(db, WALLET)).toEqual([]);
  });

  test("Load says 'Story loaded!' and resumes the story at its turn", async () => {
    await saveStory(db, draftOf(), WALLET);
    renderAt(
      { ...initialGameState, turn: { phase: 'home' }, apiKey: 'sk-now', story: initialStory },
      loadOrCreate(),
    );
    await userEvent.click(await screen.findByRole('button', { name: "Load Aria Vale's story" }));
    await screen.findByText('Story loaded!');
    expect(stageOf()).toBe('playing');
    expect(store.getState().game.story.turnCount).toBe(3);
    expect(store.getState().game.apiKey).toBe('sk-now');
  });

  test('a foreign file is refused with its reason and the list stays as it was', async () => {
    await saveStory(db, draftOf(), WALLET);
    renderAt(HOME, loadOrCreate());
    await screen.findByRole('article', { name: 'Aria Vale' });
    const input = document.querySelector<HTMLInputElement>('.saved-list__file')!;
    const file = new File(['{"hello": 1}'], 'notes.json', { type: 'application/json' });
    await userEvent.upload(input, file);
    const alert = await screen.findByText('The file is not a Taleweaver story export.');
    expect(alert.closest('[role="alert"]')?.textContent).toContain('The story was not imported.');
    expect(await listStories(db, WALLET)).toHaveLength(1);
  });
});

test("after a wallet switch, the old wallet's stories go at once", async () => {
  await saveStory(db, draftOf(), WALLET);
  renderAt(HOME, loadOrCreate());
  await screen.findByRole('article', { name: 'Aria Vale' });
  act(() => {
    store.dispatch(
      walletSlice.actions.signedIn(verifiedSession('0xbbbb000000000000000000000000000000000002')),
    );
  });
  expect(screen.queryByRole('article', { name: 'Aria Vale' })).toBeNull();
  await screen.findByText('No saved stories available for this wallet');
});

describe('Start New Game', () => {
  test('goes straight to the genres when no story is unfinished', async () => {
    await saveStory(db, draftOf({ isFinal: true }), WALLET);
    renderAt(HOME, loadOrCreate());
    await screen.findByRole('article', { name: 'Aria Vale' });
    await userEvent.click(screen.getByRole('button', { name: 'Start New Game' }));
    expect(stageOf()).toBe('genreSelection');
  });

  test('offers the unfinished story first: continue it, or start a new one', async () => {
    await saveStory(db, draftOf(), WALLET);
    renderAt(HOME, loadOrCreate());
    await screen.findByRole('article', { name: 'Aria Vale' });
    await userEvent.click(screen.getByRole('button', { name: 'Start New Game' }));
    const prompt = screen.getByRole('region', { name: 'Continue your saved story?' });
    expect(within(prompt).getByText(/not finished yet \(High Fantasy, turn 3/)).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Continue your saved story?');

    await userEvent.click(within(prompt).getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('region', { name: 'Continue your saved story?' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Start New Game' }));
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Start New Game' }));

    await userEvent.click(screen.getByRole('button', { name: 'Start New Game' }));
    await userEvent.click(screen.getByRole('button', { name: 'Start a new story' }));
    expect(stageOf()).toBe('genreSelection');
    expect(await listStories(db, WALLET)).toHaveLength(1);
  });

  test('Continue loads the unfinished story', async () => {
    await saveStory(db, draftOf(), WALLET);
    renderAt(HOME, loadOrCreate());
    await screen.findByRole('article', { name: 'Aria Vale' });
    await userEvent.click(screen.getByRole('button', { name: 'Start New Game' }));
    await userEvent.click(screen.getByRole('button', { name: "Continue Aria Vale's story" }));
    await waitFor(() => expect(stageOf()).toBe('playing'));
  });
});

describe('the save button and the ending note', () => {
  test('saves at once and says so in Korean; it waits while a turn is written', async () => {
    renderAt({}, <SaveGameButton />, { language: 'kr' });
    await userEvent.click(screen.getByRole('button', { name: '게임 저장' }));
    await screen.findByText('게임이 성공적으로 저장되었습니다!');
    expect(await listStories(db, WALLET)).toHaveLength(1);

    act(() => {
      choiceResolved({
        turn: 2,
        option: story.options[0]!,
        freeText: false,
        outcome: 'success',
        scenarioType: 'standard',
        outcomesSoFar: ['success'],
      }).forEach((action) => store.dispatch(action));
    });
    expect((screen.getByRole('button', { name: '게임 저장' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  test("a failed save says 'Error occurred while saving.' and why, until dismissed", async () => {
    ({ store } = renderWithProviders(
      <>
        <SaveGameButton />
        <StoriesNotice />
      </>,
      {
        preloadedState: { game: playing },
        context: {
          openStoriesDb: () =>
            Promise.reject(Object.assign(new Error('full'), { name: 'QuotaExceededError' })),
        },
      },
    ));
    // The flows load with the first stories event.
    act(() => {
      store.dispatch(storiesActions.savedStoriesRequested());
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save game' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 3000 });
    await waitFor(() => expect(alert.textContent).toContain('Error occurred while saving.'));
    expect(alert.textContent).toContain('storage is full');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(alert.textContent).toBe('');
  });

  test('the ending note says how many local saves were deleted', () => {
    renderAt({ turn: { phase: 'ended' } }, <LocalStoriesDeletedNote />);
    const note = document.querySelector('.local-stories-deleted')!;
    expect(note.getAttribute('role')).toBe('status');
    expect(note.textContent).toBe('');
    act(() => {
      store.dispatch(storiesActions.finishedStoriesDeleted([1]));
    });
    expect(note.textContent).toBe(
      "This story's local save was deleted: the result is kept on the leaderboard.",
    );
  });
});

describe('another tab played this story on', () => {
  const OTHER_TAB = 'In the other tab, Aria turns back and takes the mountain pass instead.';

  /** The story saved here, then saved again by another tab; this tab still at the first write. */
  async function playedOnElsewhere() {
    const first = await saveStory(db, draftOf(), WALLET);
    if (!first.saved) throw new Error('not saved');
    const current = {
      id: first.id,
      walletAddress: WALLET,
      revision: first.revision,
      lastSaved: first.lastSaved,
    };
    const elsewhere = await saveStory(
      db,
      { ...draftOf({ previousParagraph: OTHER_TAB }), ...current, basedOn: first },
      WALLET,
    );
    if (!elsewhere.saved) throw new Error('not saved');
    return { current, elsewhere };
  }

  function renderPlaying(current: CurrentRecord, { language = 'en' as Language } = {}) {
    ({ store } = renderWithProviders(
      <>
        <SaveGameButton />
        <StoriesNotice />
      </>,
      {
        language,
        preloadedState: {
          game: playing,
          wallet: { ...initialWalletState, status: 'verified', address: WALLET },
          stories: { ...initialStoriesState, current },
        },
        context: {
          openStoriesDb: () => openStoriesDb(factory),
          openTabChannel: fakeTabs().open,
        },
      },
    ));
    act(() => {
      store.dispatch(storiesActions.savedStoriesRequested());
    });
  }

  test("a save that finds it moved on says this tab's turns were kept apart; Keep playing here puts it away", async () => {
    const { current } = await playedOnElsewhere();
    renderPlaying(current);
    await waitFor(() => expect(store.getState().stories.list.status).toBe('loaded'));
    await userEvent.click(screen.getByRole('button', { name: 'Save game' }));

    const status = screen.getByRole('status');
    await within(status).findByText(
      'This story went on in another tab, so your turns here are saved as a separate story: “Aria Vale (other tab)”.',
    );
    expect(status.textContent).toContain(
      'Nothing is lost: both stories are in your saved stories.',
    );
    expect(screen.queryByText('Game saved successfully!')).toBeNull();
    // Nothing was overwritten: the other tab's story and this tab's line are both kept.
    const kept = await listStories(db, WALLET);
    expect(kept.map((story) => story.previousParagraph).sort()).toEqual(
      [LONG_PARAGRAPH, OTHER_TAB].sort(),
    );

    await userEvent.click(within(status).getByRole('button', { name: 'Keep playing here' }));
    expect(status.textContent).toBe('');
  });

  test('in Korean: the word from the other tab, and Switch resumes the other tab’s story', async () => {
    const { current } = await playedOnElsewhere();
    renderPlaying(current, { language: 'kr' });
    await waitFor(() => expect(store.getState().stories.list.status).toBe('loaded'));
    // What the channel between tabs brings when the other tab saves.
    act(() => {
      store.dispatch(
        storiesActions.savedInAnotherTab({ id: current.id, revision: 2, lastSaved: 'later' }),
      );
    });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('이 스토리는 다른 탭에서 이어서 진행되었습니다.');
    expect(status.textContent).toContain('여기서 계속하면 이 탭에서 진행한 내용은 별도의 스토리로');

    await userEvent.click(within(status).getByRole('button', { name: '다른 탭의 스토리로 전환' }));
    await within(status).findByText('스토리를 불러왔습니다!');
    expect(store.getState().game.story.previousParagraph).toBe(OTHER_TAB);
    expect(status.textContent).not.toContain('다른 탭');
  });

  test("the list marks the story kept from another tab's line", async () => {
    const { current } = await playedOnElsewhere();
    await saveStory(
      db,
      {
        ...draftOf({ previousParagraph: `Here: ${LONG_PARAGRAPH}` }),
        ...current,
        basedOn: current,
      },
      WALLET,
    );
    renderAt(HOME, loadOrCreate());
    const branch = await screen.findByRole('article', { name: 'Aria Vale (other tab)' });
    expect(screen.getByRole('article', { name: 'Aria Vale' })).toBeTruthy();
    expect(
      within(branch).getByRole('button', { name: "Load Aria Vale (other tab)'s story" }),
    ).toBeTruthy();
  });
});

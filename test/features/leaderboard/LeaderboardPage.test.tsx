/**
 * @jest-environment jsdom
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baseApi } from '../../../src/api/baseApi';
import {
  injectBackendApi,
  makeStore,
  type AppStore,
  type StoreOptions,
} from '../../../src/app/store';
import type { Language } from '../../../src/engine/types';
import { LeaderboardPage } from '../../../src/features/leaderboard/LeaderboardPage';
import {
  leaderboardApi,
  type LeaderboardEntry,
} from '../../../src/features/leaderboard/leaderboardApi';
import { renderWithProviders } from '../../support/render';

const entry = (overrides: Partial<LeaderboardEntry>): LeaderboardEntry => ({
  wallet_address: '0x1111111111111111111111111111111111111111',
  score: 100,
  ending_type: 'Heroic Victory',
  character_name: 'Nobody',
  created_at: '2025-06-12T10:00:00.000Z',
  genre: 'Fantasy',
  turn_count: 10,
  rewrites: 0,
  published_story_id: null,
  ...overrides,
});

const ROWS: LeaderboardEntry[] = [
  entry({ character_name: 'Ada Quill', score: 1500, genre: 'Cyberpunk Noir Mystery' }),
  entry({ character_name: '김서연', score: 900, ending_type: '비극적 몰락', turn_count: 12 }),
  entry({ character_name: 'Brom Ash', score: 450, ending_type: 'pyrrhic victory', rewrites: 1 }),
  entry({ character_name: 'Cato Vell', score: 120, ending_type: 'A Quiet Farewell', rewrites: 2 }),
];

let store: AppStore;

/** RTK Query's thunks expect `state.api`, which injectBackendApi has put in at run time. */
type ApiDispatch = ThunkDispatch<
  { api: ReturnType<typeof baseApi.reducer> },
  unknown,
  UnknownAction
>;
const apiDispatch = (target: AppStore) => target.dispatch as ApiDispatch;

/** The page over the store the test made, in `language`. */
function renderPage({ language = 'en' }: { language?: Language } = {}) {
  return renderWithProviders(<LeaderboardPage />, { store, language, route: '/' });
}

/**
 * The real store with the backend API plugged in, as the routes do. Injected first, so the new
 * store starts with RTK Query's state (a thunk dispatched straight after a later injection
 * would find none yet).
 */
function makeTestStore(options?: StoreOptions): AppStore {
  injectBackendApi(baseApi);
  return makeStore(options);
}

/** A store with no backend, holding `rows` in RTK Query's cache. */
async function storeWithRows(rows: LeaderboardEntry[]): Promise<AppStore> {
  const cached = makeTestStore();
  await apiDispatch(cached)(leaderboardApi.util.upsertQueryData('getLeaderboard', undefined, rows));
  return cached;
}

afterEach(() => {
  store.dispatch(baseApi.util.resetApiState());
  jest.restoreAllMocks();
});

describe('LeaderboardPage', () => {
  test('shows the columns in order and ranks the rows, the top three marked', async () => {
    store = await storeWithRows(ROWS);
    renderPage();

    expect(screen.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Rank', 'Character', 'Genre', 'Score', 'Turns', 'Ending', 'Date']);

    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Ada Quill',
      '김서연',
      'Brom Ash',
      'Cato Vell',
    ]);
    expect(rows.map((row) => row.className)).toEqual(['top-1', 'top-2', 'top-3', '']);
    expect(within(rows[0]!).getByRole('img', { name: 'Gold medal' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('img', { name: 'Silver medal' })).toBeTruthy();
    expect(within(rows[2]!).getByRole('img', { name: 'Bronze medal' })).toBeTruthy();
    expect(within(rows[3]!).queryByRole('img')).toBeNull();

    const first = within(rows[0]!).getAllByRole('cell');
    expect(first.map((cell) => cell.textContent)).toEqual([
      '1',
      'Ada Quill',
      'Cyberp...ery',
      '1,500',
      '10',
      'Heroic Victory',
      'Jun 12, 2025',
    ]);
  });

  test('shows the rewrites under the score they go with, nothing for a game without', async () => {
    store = await storeWithRows(ROWS);
    renderPage();
    const scores = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[3]!);
    const rewrites = scores.map((cell) => within(cell).queryByText(/rewrite/)?.textContent);
    expect(rewrites).toEqual([undefined, undefined, '1 rewrite', '2 rewrites']);
    // The score itself still leads its cell, under the column's name on phones.
    expect(within(scores[3]!).getByText('120')).toBe(scores[3]);
    expect(scores[3]!.getAttribute('data-label')).toBe('Score');
  });

  test('shortens long genres, keeping the whole one in the title', async () => {
    store = await storeWithRows(ROWS);
    renderPage();
    const genre = screen.getByText('Cyberp...ery');
    expect(genre.getAttribute('title')).toBe('Cyberpunk Noir Mystery');
    expect(screen.getAllByText('Fantasy')).toHaveLength(3);
  });

  test('shows Korean ending names as the English ones, other names as they are', async () => {
    store = await storeWithRows(ROWS);
    renderPage();
    const endings = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[5]?.textContent);
    expect(endings).toEqual([
      'Heroic Victory',
      'Tragic Downfall',
      'Pyrrhic Victory',
      'A Quiet Farewell',
    ]);
  });

  test("a published story's character links to the story, in both languages", async () => {
    const id = '5f0c7a7e-2b4f-4c43-9a53-8d7f0d1e2a3b';
    const rows = [entry({ character_name: 'Mira', published_story_id: id }), ...ROWS];
    for (const language of ['en', 'kr'] as const) {
      store = await storeWithRows(rows);
      const { unmount } = renderPage({ language });
      // jsdom puts a space between the name and its hidden hint, which a browser does not.
      const name = language === 'en' ? /^Mira ?, read the story$/ : /^Mira ?, 이야기 읽기$/;
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(`/story/${id}`);
      // Only the published one: the others are names, not links.
      expect(screen.getAllByRole('link')).toEqual([link]);
      expect(screen.getByText('Ada Quill').closest('a')).toBeNull();
      unmount();
      store.dispatch(baseApi.util.resetApiState());
    }
  });

  test('an empty leaderboard invites the first player', async () => {
    store = await storeWithRows([]);
    renderPage();
    expect(screen.getByText('No scores yet. Be the first to play!')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  test('says it is loading, then shows the error with its message, and Retry asks again', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const backend = jest.fn(() => Promise.reject(new Error('offline')));
    store = makeTestStore({ backend });
    renderPage();

    expect(screen.getByRole('status').textContent).toBe('Loading the leaderboard…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load leaderboard data: offline');
    expect(backend).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to load leaderboard data: offline',
    );
    expect(backend).toHaveBeenCalledTimes(2);
  });

  test('an error without a message gets the generic line', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    store = makeTestStore({ backend: () => Promise.reject(new Error('')) });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'An unexpected error occurred while loading the leaderboard',
    );
  });

  test('speaks Korean with the Korean catalogue', async () => {
    store = await storeWithRows(ROWS);
    renderPage({ language: 'kr' });
    expect(screen.getByRole('heading', { level: 1, name: '리더보드' })).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['순위', '캐릭터', '장르', '점수', '턴 수', '결말', '날짜']);
    expect(screen.getByRole('img', { name: '금메달' })).toBeTruthy();
    // Dates follow the interface locale; ending names stay English.
    expect(screen.getAllByText('2025년 6월 12일').length).toBe(ROWS.length);
    expect(screen.getByText('Tragic Downfall')).toBeTruthy();
    expect(screen.getByText('다시 쓰기 2회')).toBeTruthy();
  });
});

/**
 * @jest-environment jsdom
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { baseApi } from '../../../src/api/baseApi';
import {
  injectBackendApi,
  makeStore,
  type AppStore,
  type StoreOptions,
} from '../../../src/app/store';
import { ProfilePage } from '../../../src/features/profile/ProfilePage';
import { profileApi, type UserProfile } from '../../../src/features/profile/profileApi';
import { summarizeResults, type ProfileStats } from '../../../src/features/profile/profileStats';
import {
  initialWalletState,
  sessionEnded,
  type VerifiedWalletSession,
} from '../../../src/features/wallet';
import { verifiedWallet, verifiedSession } from '../../fixtures/walletSessions';
import { renderWithProviders } from '../../support/render';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';

/** A verified session, as the wallet saga restores it from this browser at start. */
const signIn = (): VerifiedWalletSession => verifiedSession(ADDRESS);

const STATS: ProfileStats = summarizeResults([
  { score: 120, created_at: '2025-06-01T10:00:00Z', detailed_stats: { turnCount: 9 } },
  { score: 1340, created_at: '2025-06-03T10:00:00Z', detailed_stats: { turnCount: 14 } },
  { score: 75, created_at: '2025-06-02T10:00:00Z', detailed_stats: { turnCount: 7 } },
]);

let store: AppStore;

/** RTK Query's thunks expect `state.api`, which injectBackendApi has put in at run time. */
type ApiDispatch = ThunkDispatch<
  { api: ReturnType<typeof baseApi.reducer> },
  unknown,
  UnknownAction
>;
const apiDispatch = (target: AppStore) => target.dispatch as ApiDispatch;

interface Cached {
  user?: UserProfile;
  stats?: ProfileStats;
}

/** The profile page over a real store; `cached` goes into RTK Query's cache first. */
async function renderProfile(
  session: VerifiedWalletSession | null,
  cached: Cached = {},
  options?: StoreOptions,
) {
  injectBackendApi(baseApi);
  // The wallet saga would have restored this session from storage; here the state says so.
  const wallet = session ? verifiedWallet(session.address, session) : initialWalletState;
  store = makeStore({ preloadedState: { wallet }, ...options });
  if (session && cached.user) {
    await apiDispatch(store)(
      profileApi.util.upsertQueryData('getUser', session.address, cached.user),
    );
  }
  if (session && cached.stats) {
    await apiDispatch(store)(
      profileApi.util.upsertQueryData('getProfileStats', session.address, cached.stats),
    );
  }
  renderWithProviders(<ProfilePage />, { store, route: '/' });
}

const offline: StoreOptions = { backend: () => Promise.reject(new Error('offline')) };

afterEach(() => {
  store.dispatch(baseApi.util.resetApiState());
  window.localStorage.clear();
  jest.restoreAllMocks();
});

describe('ProfilePage without a wallet', () => {
  test('asks the player to connect from the homepage', async () => {
    await renderProfile(null);
    expect(screen.getByRole('heading', { name: 'Wallet Not Connected' })).toBeTruthy();
    expect(
      screen.getByText('Please connect your wallet from the homepage to view your profile.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  });

  test('an account still signing in (no token yet) counts as no wallet', async () => {
    injectBackendApi(baseApi);
    ({ store } = renderWithProviders(<ProfilePage />, {
      preloadedState: { wallet: { ...initialWalletState, status: 'signing', address: ADDRESS } },
      route: '/',
    }));
    expect(screen.getByRole('heading', { name: 'Wallet Not Connected' })).toBeTruthy();
  });

  test('a session that ends (expiry, another tab) takes the page back to no wallet', async () => {
    await renderProfile(signIn(), { user: { username: 'Ari', twitter_followed: false } });
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeTruthy();
    act(() => {
      store.dispatch(sessionEnded());
    });
    expect(screen.getByRole('heading', { name: 'Wallet Not Connected' })).toBeTruthy();
  });
});

describe('ProfilePage with a verified wallet', () => {
  test('shows the account and the game statistics from the cache', async () => {
    const session = signIn();
    await renderProfile(session, {
      user: { username: 'Ada', twitter_followed: false },
      stats: STATS,
    });

    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeTruthy();
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByText('0xabcd...ef01').getAttribute('title')).toBe(ADDRESS);
    expect((within(account).getByLabelText('Username') as HTMLInputElement).value).toBe('Ada');

    const stats = screen.getByRole('region', { name: 'Game Statistics' });
    const value = (label: string) => within(stats).getByText(label).nextElementSibling?.textContent;
    expect(value('Total Games')).toBe('3');
    expect(value('Total Score')).toBe('1,535');
    expect(value('Total Turns')).toBe('30');
    expect(value('High Score')).toBe('1,340');
    const recent = within(stats)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(recent).toEqual([
      ['Jun 3, 2025', '1,340', '14'],
      ['Jun 2, 2025', '75', '7'],
      ['Jun 1, 2025', '120', '9'],
    ]);

    const benefits = screen.getByRole('region', { name: 'Account & Benefits' });
    expect(within(benefits).getByText('x1.5 reward multiplier')).toBeTruthy();
    expect(within(benefits).getByText('Access to future whitelist raffles')).toBeTruthy();
    expect(within(benefits).getByText('Ada')).toBeTruthy();
    expect(within(benefits).getByText('0xabcd...ef01')).toBeTruthy();
  });

  test('a player with no saved games sees the empty line', async () => {
    const session = signIn();
    await renderProfile(session, {
      user: { username: null, twitter_followed: false },
      stats: summarizeResults([]),
    });
    expect(screen.getByText(/No saved games yet/)).toBeTruthy();
    const benefits = screen.getByRole('region', { name: 'Account & Benefits' });
    expect(within(benefits).getByText('Not set')).toBeTruthy();
  });

  test('Save is enabled only for a new, non-empty name', async () => {
    const session = signIn();
    await renderProfile(session, {
      user: { username: 'Ada', twitter_followed: false },
      stats: STATS,
    });
    const input = screen.getByLabelText('Username');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

    expect(save.disabled).toBe(true);
    await userEvent.clear(input);
    expect(save.disabled).toBe(true);
    await userEvent.type(input, '   ');
    expect(save.disabled).toBe(true);
    await userEvent.type(input, 'Ada ');
    expect(save.disabled).toBe(true);
    await userEvent.clear(input);
    await userEvent.type(input, 'Bea');
    expect(save.disabled).toBe(false);
  });

  test('Enter saves too; a failed save says so in the page', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const session = signIn();
    await renderProfile(
      session,
      { user: { username: 'Ada', twitter_followed: false }, stats: STATS },
      offline,
    );
    const input = screen.getByLabelText('Username');
    await userEvent.clear(input);
    await userEvent.type(input, 'Bea{Enter}');

    expect(await screen.findByText('Save failed')).toBeTruthy();
    expect(window.localStorage.getItem(`username_${ADDRESS}`)).toBeNull();
    // Nothing was saved, so the new name may be tried again.
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  test('Copy puts the whole address on the clipboard and says so', async () => {
    const user = userEvent.setup();
    const session = signIn();
    await renderProfile(session, {
      user: { username: 'Ada', twitter_followed: false },
      stats: STATS,
    });
    await user.click(screen.getByRole('button', { name: 'Copy' }));

    expect(await screen.findByText('Address copied!')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(ADDRESS);
  });

  test('Follow opens the follow page in a new tab, then asks to confirm', async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    const session = signIn();
    await renderProfile(session, {
      user: { username: 'Ada', twitter_followed: false },
      stats: STATS,
    });
    expect(screen.queryByText('Did you follow?')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(open).toHaveBeenCalledWith(
      'https://twitter.com/intent/follow?screen_name=TaleweaverGame',
      '_blank',
      'noopener,noreferrer',
    );
    expect(screen.getByText('Did you follow?')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeTruthy();
  });

  test('a supporter sees the Royal Supporter badge instead of Follow', async () => {
    const session = signIn();
    await renderProfile(session, {
      user: { username: 'Ada', twitter_followed: true },
      stats: STATS,
    });
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByText('Royal Supporter')).toBeTruthy();
    expect(within(account).getByText('x1.5 reward multiplier')).toBeTruthy();
    expect(within(account).getByText('Access to future whitelist raffles')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.getByText('Your Royal Supporter benefits are active.')).toBeTruthy();
  });

  test('when the user cannot be fetched, the error box leads home', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderProfile(signIn(), {}, offline);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to fetch user information.',
    );
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  });

  test('when the statistics cannot be fetched, their panel shows the error box', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const session = signIn();
    await renderProfile(session, { user: { username: 'Ada', twitter_followed: false } }, offline);

    const stats = screen.getByRole('region', { name: 'Game Statistics' });
    expect((await within(stats).findByRole('alert')).textContent).toContain(
      'An error occurred while fetching data.',
    );
    expect(within(stats).getByRole('link', { name: 'Return to Home' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Account' })).toBeTruthy();
  });
});

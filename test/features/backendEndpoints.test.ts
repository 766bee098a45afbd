/**
 * The app's RTK Query endpoints on a real store, talking through supabase-js to the real
 * server (PGlite): what the pages and the ending screen get back.
 */
import { Wallet } from 'ethers';
import { baseApi } from '../../src/api/baseApi';
import { injectBackendApi, makeStore } from '../../src/app/store';
import { leaderboardApi } from '../../src/features/leaderboard/leaderboardApi';
import { resultsApi } from '../../src/features/leaderboard/resultsApi';
import { profileApi } from '../../src/features/profile/profileApi';
import { signedIn } from '../../src/features/wallet';
import { tokenExpiry } from '../../src/features/wallet/tokenClaims';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../server/support/databases';
import { plausibleResult } from '../server/support/results';
import { signIn, startTestServer, type TestServer } from '../server/support/testServer';

let server: TestServer;
const wallet = Wallet.createRandom();
const address = wallet.address.toLowerCase();
let token: string;

beforeAll(async () => {
  injectBackendApi(baseApi);
  const [pglite] = testBackends();
  server = await startTestServer(pglite!);
  token = await signIn(server, wallet);
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close());

/** A store on the test server, signed in as the wallet (the session the wallet saga keeps). */
function storeOnServer() {
  const store = makeStore({ backend: async () => server.backend });
  store.dispatch(signedIn({ address, token, expiresAt: tokenExpiry(token)! * 1000 }));
  return store;
}

test('saving a result: saved, then the duplicate warning, and the leaderboard refreshes', async () => {
  const store = storeOnServer();
  const leaderboard = store.dispatch(leaderboardApi.endpoints.getLeaderboard.initiate());
  expect((await leaderboard.unwrap()).length).toBe(0);

  const request = { address, result: plausibleResult({ character: 'Saved Once' }) };
  const save = () => store.dispatch(resultsApi.endpoints.saveGameResult.initiate(request)).unwrap();
  await expect(save()).resolves.toBe('saved');
  await expect(save()).resolves.toBe('duplicate');

  // The saved result invalidated the cached leaderboard, which refetches by itself.
  await new Promise<void>((resolve) => {
    const unsubscribe = store.subscribe(() => {
      const state = store.getState() as Parameters<
        ReturnType<typeof leaderboardApi.endpoints.getLeaderboard.select>
      >[0];
      const entries = leaderboardApi.endpoints.getLeaderboard.select()(state).data;
      if (entries?.length === 1) {
        unsubscribe();
        resolve();
      }
    });
  });
  leaderboard.unsubscribe();
});

test('the backend refusing a result gives its own message', async () => {
  const store = storeOnServer();
  const result = plausibleResult({ character: 'Inflated' });
  const outcome = store
    .dispatch(
      resultsApi.endpoints.saveGameResult.initiate({
        address,
        result: { ...result, score: result.score + 1 },
      }),
    )
    .unwrap();
  await expect(outcome).rejects.toEqual(
    expect.objectContaining({ code: '23514', message: expect.stringMatching(/does not match/) }),
  );
});

test('profile statistics and the user row come back for the signed-in wallet', async () => {
  const store = storeOnServer();
  const session = { address, token };
  const stats = await store
    .dispatch(profileApi.endpoints.getProfileStats.initiate(session))
    .unwrap();
  expect(stats).toEqual(
    expect.objectContaining({ totalGames: 1, totalTurns: 9, highScore: plausibleResult().score }),
  );
  await store
    .dispatch(profileApi.endpoints.updateUsername.initiate({ session, username: 'Ari' }))
    .unwrap();
  await store.dispatch(profileApi.endpoints.confirmFollow.initiate(session)).unwrap();
  const user = await store
    .dispatch(profileApi.endpoints.getUser.initiate(session, { forceRefetch: true }))
    .unwrap();
  expect(user).toEqual({ username: 'Ari', twitter_followed: true });
});

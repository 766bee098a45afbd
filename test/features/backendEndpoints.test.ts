/**
 * The app's RTK Query endpoints on a real store, talking through supabase-js to the real
 * server (PGlite): what the pages and the ending screen get back.
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { baseApi } from '../../src/api/baseApi';
import { injectBackendApi, makeStore } from '../../src/app/store';
import { leaderboardApi } from '../../src/features/leaderboard/leaderboardApi';
import { resultsApi } from '../../src/features/leaderboard/resultsApi';
import { NO_SESSION, profileApi } from '../../src/features/profile/profileApi';
import { publishedStoryApi } from '../../src/features/stories/published/publishedStoryApi';
import { signedIn } from '../../src/features/wallet';
import { tokenExpiry } from '../../src/features/wallet/tokenClaims';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../server/support/databases';
import { plausibleResult } from '../server/support/results';
import { signIn, startTestServer, type TestServer } from '../server/support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

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
afterAll(() => server.close(), STOP_TIMEOUT_MS);

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
  const stats = await store
    .dispatch(profileApi.endpoints.getProfileStats.initiate(address))
    .unwrap();
  expect(stats).toEqual(
    expect.objectContaining({ totalGames: 1, totalTurns: 9, highScore: plausibleResult().score }),
  );
  await store
    .dispatch(profileApi.endpoints.updateUsername.initiate({ address, username: 'Ari' }))
    .unwrap();
  await store.dispatch(profileApi.endpoints.confirmFollow.initiate(address)).unwrap();
  const user = await store
    .dispatch(profileApi.endpoints.getUser.initiate(address, { forceRefetch: true }))
    .unwrap();
  expect(user).toEqual({ username: 'Ari', twitter_followed: true });
});

test("the profile's requests take the token from the wallet's session, never from their arguments", async () => {
  const store = storeOnServer();
  await store.dispatch(profileApi.endpoints.getUser.initiate(address)).unwrap();
  const { api } = store.getState() as { api: { queries: Record<string, unknown> } };
  expect(Object.keys(api.queries)).toContain(`getUser("${address}")`);
  expect(JSON.stringify(api)).not.toContain(token);

  // A store whose wallet has not signed in sends nothing as it.
  const backend = jest.fn(async () => server.backend);
  const visitor = makeStore({ backend });
  await expect(
    visitor.dispatch(profileApi.endpoints.getUser.initiate(address)).unwrap(),
  ).rejects.toEqual(expect.objectContaining({ code: NO_SESSION }));
  expect(backend).not.toHaveBeenCalled();
  visitor.stop();
});

test('a published story reads as the page shows it, for anyone; an unpublished one is null', async () => {
  const id = randomUUID();
  const owner = server.backend.forWallet({ address, token });
  const log = [
    { kind: 'paragraph', text: 'The city lay under a green sea.' },
    { kind: 'choice', text: 'Dive for the bell', outcome: 'success', freeText: false },
  ];
  const saved = await owner.rpc('save_story', {
    p_id: id,
    p_base_revision: 0,
    p_saved_at: new Date().toISOString(),
    p_language: 'kr',
    p_head: {
      isFinal: true,
      endingType: '씁쓸한 결말',
      game: { chosenGenre: '판타지', chosenImage: 40, chosenCharacter: '김서연', turnCount: 9 },
    },
    p_lengths: { storyLog: log.length },
    p_parts: log.map((value, index) => ({ list: 'storyLog', index, value })),
  });
  expect(saved.error).toBeNull();
  // A visitor: no wallet signed in.
  const store = makeStore({ backend: async () => server.backend });
  const read = () =>
    store
      .dispatch(publishedStoryApi.endpoints.getPublishedStory.initiate(id, { forceRefetch: true }))
      .unwrap();
  await expect(read()).resolves.toBeNull();

  expect((await owner.rpc('publish_story', { p_id: id, p_published: true })).error).toBeNull();
  await expect(read()).resolves.toEqual({
    id,
    language: 'kr',
    genre: '판타지',
    // Not one of the 32 portraits: the first one.
    portrait: 1,
    characterName: '김서연',
    author: `${address.slice(0, 6)}…${address.slice(-4)}`,
    entries: [
      { kind: 'paragraph', text: 'The city lay under a green sea.' },
      { kind: 'choice', text: 'Dive for the bell', outcome: 'success' },
    ],
    recap: null,
    score: null,
    endingType: '씁쓸한 결말',
    turnCount: 9,
    publishedAt: expect.any(String),
  });
});

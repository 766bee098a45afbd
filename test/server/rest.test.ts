/**
 * The backend calls of SPEC.md section 7, made with supabase-js's clients exactly as the app makes them,
 * against the real server on PGlite and on PostgreSQL.
 */
import { createClient } from '@supabase/supabase-js';
import { Wallet } from 'ethers';
import WebSocket from 'ws';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { plausibleResult } from './support/results';
import { signIn, startTestServer, type TestServer } from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

describe.each(testBackends())('the REST API on $name', (database) => {
  let server: TestServer;
  const alice = Wallet.createRandom();
  const bob = Wallet.createRandom();
  let aliceToken: string;
  let bobToken: string;
  const aliceAddress = alice.address.toLowerCase();
  const bobAddress = bob.address.toLowerCase();
  const asAlice = () => server.backend.forWallet({ address: aliceAddress, token: aliceToken });

  beforeAll(async () => {
    server = await startTestServer(database);
    aliceToken = await signIn(server, alice);
    bobToken = await signIn(server, bob);
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  test('create_user_if_not_exists gives a fresh nonce, and with p_nonce null only ensures', async () => {
    const wallet = Wallet.createRandom().address;
    const first = await server.backend.anon.rpc('create_user_if_not_exists', {
      p_wallet_address: wallet.toLowerCase(),
    });
    const second = await server.backend.anon.rpc('create_user_if_not_exists', {
      p_wallet_address: wallet.toLowerCase(),
    });
    expect(first.error).toBeNull();
    const [a] = first.data as { nonce: string; wallet_address: string }[];
    const [b] = second.data as { nonce: string }[];
    expect(a?.wallet_address).toBe(wallet.toLowerCase());
    expect(a?.nonce).toMatch(/^[0-9a-zA-Z]{8,}$/);
    expect(b?.nonce).not.toBe(a?.nonce);

    const ensured = await asAlice().rpc('create_user_if_not_exists', {
      p_wallet_address: aliceAddress,
      p_nonce: null,
    });
    expect(ensured.error).toBeNull();
    expect(ensured.data).toEqual([
      expect.objectContaining({ wallet_address: aliceAddress, nonce: null }),
    ]);
  });

  test('a signed-in wallet saves a result, and the leaderboard shows it to anyone', async () => {
    const result = plausibleResult({ character: 'Aria Vale' });
    const insert = await asAlice()
      .from('game_results')
      .insert({ wallet_address: aliceAddress, ...result });
    expect(insert.error).toBeNull();
    expect(insert.status).toBe(201);

    const { data, error } = await server.backend.anon
      .from('leaderboard')
      .select('*')
      .order('score', { ascending: false })
      .limit(20);
    expect(error).toBeNull();
    expect(data).toEqual([
      expect.objectContaining({
        wallet_address: aliceAddress,
        score: result.score,
        character_name: 'Aria Vale',
        ending_type: 'Heroic Victory',
        genre: 'High Fantasy',
        turn_count: 9,
      }),
    ]);
  });

  test('the leaderboard is ordered by score and holds at most 20 rows', async () => {
    for (let decisions = 0; decisions < 22; decisions += 1) {
      const { error } = await server.backend
        .forWallet({ address: bobAddress, token: bobToken })
        .from('game_results')
        .insert({
          wallet_address: bobAddress,
          ...plausibleResult({ character: `Bob ${decisions}`, decisions }),
        });
      expect(error).toBeNull();
    }
    const { data } = await server.backend.anon
      .from('leaderboard')
      .select('*')
      .order('score', { ascending: false })
      .limit(20);
    const scores = (data as { score: number }[]).map((row) => row.score);
    expect(scores).toHaveLength(20);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
  });

  describe('leaderboard reads share one query', () => {
    const top20 = () =>
      server.backend.anon
        .from('leaderboard')
        .select('*')
        .order('score', { ascending: false })
        .limit(20);

    test('a result saved while reads share an answer shows in the very next read', async () => {
      const before = await Promise.all(Array.from({ length: 10 }, top20));
      expect(new Set(before.map(({ data }) => JSON.stringify(data))).size).toBe(1);
      const carol = Wallet.createRandom();
      const carolAddress = carol.address.toLowerCase();
      const carolToken = await signIn(server, carol);
      const best = plausibleResult({ character: 'Fresh Top', decisions: 100, turns: 30 });
      const { error } = await server.backend
        .forWallet({ address: carolAddress, token: carolToken })
        .from('game_results')
        .insert({ wallet_address: carolAddress, ...best });
      expect(error).toBeNull();
      const { data } = await top20();
      expect(data?.[0]).toEqual(expect.objectContaining({ character_name: 'Fresh Top' }));
    });

    test('each request has its own token checked, even when it could share an answer', async () => {
      const [shared, forged] = await Promise.all([
        top20(),
        fetch(`${server.url}/rest/v1/leaderboard?select=*&order=score.desc&limit=20`, {
          headers: { apikey: server.tokens.publishableKey, authorization: 'Bearer not.a.token' },
        }),
      ]);
      expect(shared.error).toBeNull();
      expect(forged.status).toBe(401);
    });
  });

  test("supabase-js's own createClient, as a hosted-Supabase app would use it, talks to the server", async () => {
    const supabase = createClient(server.url, server.tokens.publishableKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no WebSocket of its own; nothing here subscribes.
      realtime: { transport: WebSocket as never },
    });
    const board = await supabase
      .from('leaderboard')
      .select('*')
      .order('score', { ascending: false })
      .limit(20);
    expect(board.error).toBeNull();
    expect(board.status).toBe(200);
    const nonce = await supabase.rpc('create_user_if_not_exists', {
      p_wallet_address: Wallet.createRandom().address.toLowerCase(),
    });
    expect(nonce.error).toBeNull();
    expect((nonce.data as { nonce: string }[])[0]?.nonce).toMatch(/^[0-9a-f]{32}$/);
    const login = await supabase.functions.invoke('wallet-login', { body: {} });
    expect(login.error).not.toBeNull();
    await supabase.removeAllChannels();
    supabase.realtime.disconnect();
  });

  test('the duplicate check reads its own results by wallet, character and ending', async () => {
    const { data, error } = await asAlice()
      .from('game_results')
      .select('*')
      .eq('wallet_address', aliceAddress)
      .eq('character_name', 'Aria Vale')
      .eq('ending_type', 'Heroic Victory');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
  });

  test('the profile reads its user row as a single object and its totals', async () => {
    const user = await asAlice()
      .from('users')
      .select('username, twitter_followed')
      .eq('wallet_address', aliceAddress)
      .single();
    expect(user.error).toBeNull();
    expect(user.data).toEqual({ username: null, twitter_followed: false });

    const totals = await asAlice()
      .from('game_results')
      .select('score, detailed_stats')
      .eq('wallet_address', aliceAddress);
    expect(totals.data).toEqual([
      { score: plausibleResult().score, detailed_stats: expect.objectContaining({ turnCount: 9 }) },
    ]);
  });

  test('.single() with no row is PostgREST 406 PGRST116', async () => {
    const { error, status } = await asAlice()
      .from('users')
      .select('username')
      .eq('wallet_address', bobAddress)
      .single();
    expect(status).toBe(406);
    expect(error?.code).toBe('PGRST116');
  });

  test('the username and the follow flag are saved to the own row', async () => {
    const rename = await asAlice()
      .from('users')
      .update({ username: 'Aria' })
      .eq('wallet_address', aliceAddress);
    expect(rename.error).toBeNull();
    const follow = await asAlice()
      .from('users')
      .update({ twitter_followed: true })
      .eq('wallet_address', aliceAddress);
    expect(follow.error).toBeNull();
    const { data } = await asAlice()
      .from('users')
      .select('username, twitter_followed')
      .eq('wallet_address', aliceAddress)
      .single();
    expect(data).toEqual({ username: 'Aria', twitter_followed: true });
  });
});

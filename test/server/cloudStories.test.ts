/**
 * Cloud saves and published stories (migration 20261127000000_cloud_stories.sql), through the
 * real server and supabase-js as the app calls them, on PGlite and on PostgreSQL: a story is
 * its wallet's alone to read, save, publish or delete; a save made on an older revision is
 * refused, not written; the database holds the bounds (100 stories, 1 MB, writes a minute); a
 * published story's public fields are anyone's, and nothing else of it; the leaderboard links
 * a result to its story while the story is published.
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import type { BackendClient } from '../../src/api/backend';
import { fetchCloudStory } from '../../src/features/stories/cloud/cloudStories';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { plausibleResult } from './support/results';
import { signIn, startTestServer, type TestServer } from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const WRITE_LIMIT = 12;

/** A finished story's record without its lists, as the browser keeps it. */
const head = (overrides: Record<string, unknown> = {}) => ({
  chosenCharacter: 'Mira',
  chosenGenre: 'Fantasy',
  characterBio: 'A cartographer of drowned cities.',
  characterImage: '/characters/7.png',
  previousParagraph: 'The tide came in over the last of the maps, and Mira let it.',
  isFinal: true,
  endingType: 'bittersweet',
  game: {
    chosenGenre: 'Fantasy',
    chosenImage: 7,
    chosenCharacter: 'Mira',
    storyNote: 'PINNED NOTE, never public',
    turnCount: 9,
    isFinal: true,
    finalScore: 412,
    recap: {
      wrapUpParagraph: 'She kept the last map.',
      bigMoment: 'The bell under the water.',
      frequentActivity: 'Listening.',
      characterTraitHighlight: 'Patience.',
      themeExploration: 'What is kept.',
      overallScore: 88,
      endingType: 'bittersweet',
    },
  },
  ...overrides,
});

const LOG = [
  { kind: 'paragraph', text: 'The city lay under a green sea.' },
  { kind: 'choice', text: 'Dive for the bell', outcome: 'SUCCESS', freeText: false },
  { kind: 'paragraph', text: '<script>alert(1)</script> rang once.', edited: true },
];

const parts = (log: readonly unknown[] = LOG) => [
  ...log.map((value, index) => ({ list: 'storyLog', index, value })),
  { list: 'storySummary', index: 0, value: 'MEMORY, never public' },
];

interface SaveArgs {
  id: string;
  base?: number;
  log?: readonly unknown[];
  head?: Record<string, unknown>;
  partsOnly?: { list: string; index: number; value: unknown }[];
  lengths?: Record<string, number>;
}

function saveStory(client: BackendClient, args: SaveArgs) {
  const log = args.log ?? LOG;
  return client.rpc('save_story', {
    p_id: args.id,
    p_base_revision: args.base ?? 0,
    p_saved_at: new Date().toISOString(),
    p_language: 'en',
    p_head: args.head ?? head(),
    p_lengths: args.lengths ?? { storyLog: log.length, storySummary: 1 },
    p_parts: args.partsOnly ?? parts(log),
  });
}

describe.each(testBackends())('cloud stories on $name', (database) => {
  let server: TestServer;
  let owner: BackendClient;
  let other: BackendClient;
  let ownerWallet: Wallet;

  beforeAll(async () => {
    server = await startTestServer(database, {
      SIGN_IN_RATE_LIMIT: '1000',
      STORY_WRITE_RATE_LIMIT: String(WRITE_LIMIT),
    });
    ownerWallet = Wallet.createRandom() as unknown as Wallet;
    const otherWallet = Wallet.createRandom();
    owner = server.backend.forWallet({
      address: ownerWallet.address.toLowerCase(),
      token: await signIn(server, ownerWallet),
    });
    other = server.backend.forWallet({
      address: otherWallet.address.toLowerCase(),
      token: await signIn(server, otherWallet),
    });
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  /** Each test starts with no writes counted this minute or the next. */
  beforeEach(() => server.db.pool.query('delete from public.story_writes'));

  const storyParts = async (client: BackendClient, id: string) =>
    (
      await client
        .from('story_parts')
        .select('list,index,value')
        .eq('story_id', id)
        .order('list')
        .order('index')
    ).data;

  test('the owner saves a story, reads it back whole, and saves only what changed next', async () => {
    const id = randomUUID();
    expect((await saveStory(owner, { id })).data).toEqual([{ saved: true, revision: 1 }]);
    const { data: rows } = await owner
      .from('stories')
      .select('id,revision,head,language')
      .eq('id', id);
    expect(rows).toEqual([{ id, revision: 1, head: head(), language: 'en' }]);
    expect(await storyParts(owner, id)).toHaveLength(4);

    // Turn two: one new paragraph, and the third one written again shorter.
    const next = await saveStory(owner, {
      id,
      base: 1,
      partsOnly: [
        { list: 'storyLog', index: 2, value: { kind: 'paragraph', text: 'Written again.' } },
      ],
      lengths: { storyLog: 3, storySummary: 0 },
    });
    expect(next.data).toEqual([{ saved: true, revision: 2 }]);
    expect(await storyParts(owner, id)).toEqual([
      { list: 'storyLog', index: 0, value: LOG[0] },
      { list: 'storyLog', index: 1, value: LOG[1] },
      { list: 'storyLog', index: 2, value: { kind: 'paragraph', text: 'Written again.' } },
    ]);
  });

  test('a save made on an older revision is refused and writes nothing', async () => {
    const id = randomUUID();
    await saveStory(owner, { id });
    await saveStory(owner, { id, base: 1 });
    const stale = await saveStory(owner, { id, base: 1, log: LOG.slice(0, 1) });
    expect(stale.data).toEqual([{ saved: false, revision: 2 }]);
    expect(await storyParts(owner, id)).toHaveLength(4);
    // A story deleted elsewhere: a save based on it is refused too, and the browser sends it whole.
    await owner.from('stories').delete().eq('id', id);
    expect((await saveStory(owner, { id, base: 2 })).data).toEqual([{ saved: false, revision: 0 }]);
    expect((await saveStory(owner, { id, base: 0 })).data).toEqual([{ saved: true, revision: 1 }]);
  });

  test('another wallet can neither read, save over, publish nor delete it', async () => {
    const id = randomUUID();
    await saveStory(owner, { id });
    expect((await other.from('stories').select('*').eq('id', id)).data).toEqual([]);
    expect(await storyParts(other, id)).toEqual([]);
    // Saving over it: the row is not theirs to update.
    expect((await saveStory(other, { id, base: 1 })).data).toEqual([{ saved: false, revision: 0 }]);
    const overwrite = await saveStory(other, { id, base: 0 });
    expect(overwrite.error).toMatchObject({ code: expect.stringMatching(/^(42501|23505)$/) });
    expect((await other.rpc('publish_story', { p_id: id, p_published: true })).error).toMatchObject(
      { code: 'story_not_found' },
    );
    const deleted = await other.from('stories').delete().eq('id', id).select('id');
    expect(deleted.data).toEqual([]);
    // Nor add parts to it behind its owner's back.
    const { error } = await other
      .from('story_parts')
      .insert({ story_id: id, list: 'storyLog', index: 9, value: 'x' });
    expect(error).not.toBeNull();
    const { data } = await owner.from('stories').select('revision,published_at').eq('id', id);
    expect(data).toEqual([{ revision: 1, published_at: null }]);
  });

  test('a visitor without a wallet reads no story and saves none', async () => {
    const id = randomUUID();
    await saveStory(owner, { id });
    const read = await server.backend.anon.from('stories').select('*').eq('id', id);
    expect(read.status).toBe(401);
    expect((await saveStory(server.backend.anon, { id: randomUUID() })).status).toBe(401);
    const parts = await server.backend.anon.from('story_parts').select('*').eq('story_id', id);
    expect(parts.status).toBe(401);
  });

  test('publishing shows the public fields to anyone; unpublishing takes them down at once', async () => {
    const id = randomUUID();
    await saveStory(owner, { id });
    // Not published yet: nobody reads a page.
    expect(
      (await server.backend.anon.from('published_stories').select('*').eq('id', id)).data,
    ).toEqual([]);

    const published = await owner.rpc('publish_story', { p_id: id, p_published: true });
    expect(published.error).toBeNull();
    const { data: pages } = await server.backend.anon
      .from('published_stories')
      .select('*')
      .eq('id', id);
    const address = ownerWallet.address.toLowerCase();
    expect(pages).toEqual([
      {
        id,
        language: 'en',
        genre: 'Fantasy',
        portrait: 7,
        character_name: 'Mira',
        author: `${address.slice(0, 6)}…${address.slice(-4)}`,
        entries: [
          { kind: 'paragraph', text: LOG[0]?.text, outcome: null },
          { kind: 'choice', text: 'Dive for the bell', outcome: 'SUCCESS' },
          { kind: 'paragraph', text: '<script>alert(1)</script> rang once.', outcome: null },
        ],
        recap: {
          wrapUpParagraph: 'She kept the last map.',
          bigMoment: 'The bell under the water.',
          frequentActivity: 'Listening.',
          characterTraitHighlight: 'Patience.',
          themeExploration: 'What is kept.',
        },
        score: 412,
        ending_type: 'bittersweet',
        turn_count: 9,
        published_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(pages)).not.toMatch(/PINNED NOTE|MEMORY|0x[0-9a-f]{40}/);

    expect((await owner.rpc('publish_story', { p_id: id, p_published: false })).error).toBeNull();
    expect(
      (await server.backend.anon.from('published_stories').select('id').eq('id', id)).data,
    ).toEqual([]);
  });

  test('a published story’s page carries none of its lorebook; its owner still reads it back', async () => {
    const id = randomUUID();
    const lorebook = [
      {
        id: 'orla',
        name: 'LORE NAME Orla',
        keywords: ['LOREKEY'],
        text: 'LOREBOOK TEXT, never public',
        always: true,
      },
    ];
    const withLorebook = head();
    await saveStory(owner, {
      id,
      head: { ...withLorebook, game: { ...withLorebook.game, lorebook } },
    });
    expect((await owner.rpc('publish_story', { p_id: id, p_published: true })).error).toBeNull();

    const { data: pages } = await server.backend.anon
      .from('published_stories')
      .select('*')
      .eq('id', id);
    expect(pages).toHaveLength(1);
    expect(JSON.stringify(pages)).not.toMatch(/LORE|orla/);
    // What the app reads of its own cloud save (cloud/cloudStories.ts) has it whole.
    const kept = await fetchCloudStory(owner, id);
    expect((kept?.record.game as { lorebook?: unknown }).lorebook).toEqual(lorebook);
  });

  test('an unfinished story cannot be published', async () => {
    const id = randomUUID();
    await saveStory(owner, { id, head: head({ isFinal: false }) });
    const { error } = await owner.rpc('publish_story', { p_id: id, p_published: true });
    expect(error).toMatchObject({ code: '23514' });
  });

  test('a leaderboard result links to its story while the story is published', async () => {
    const id = randomUUID();
    await saveStory(owner, { id });
    const result = await owner.from('game_results').insert({
      ...plausibleResult({ character: 'Mira the linked' }),
      wallet_address: ownerWallet.address.toLowerCase(),
      story_id: id,
    });
    expect(result.error).toBeNull();
    const link = async () =>
      (
        await server.backend.anon
          .from('leaderboard')
          .select('character_name,published_story_id')
          .eq('character_name', 'Mira the linked')
      ).data;
    expect(await link()).toEqual([{ character_name: 'Mira the linked', published_story_id: null }]);
    await owner.rpc('publish_story', { p_id: id, p_published: true });
    expect(await link()).toEqual([{ character_name: 'Mira the linked', published_story_id: id }]);
    await owner.from('stories').delete().eq('id', id);
    expect(await link()).toEqual([{ character_name: 'Mira the linked', published_story_id: null }]);
  });

  test('a story past 1 MB is refused with 413, and what was saved before is kept', async () => {
    const id = randomUUID();
    await saveStory(owner, { id });
    // Two saves of 600 KB each: a request body is bounded too, the story's total is the rule.
    const big = { kind: 'paragraph', text: 'x'.repeat(600_000) };
    const grown = await saveStory(owner, {
      id,
      base: 1,
      partsOnly: [{ list: 'storyLog', index: 3, value: big }],
      lengths: { storyLog: 4, storySummary: 1 },
    });
    expect(grown.data).toEqual([{ saved: true, revision: 2 }]);
    const tooLarge = await saveStory(owner, {
      id,
      base: 2,
      partsOnly: [{ list: 'storyLog', index: 4, value: big }],
      lengths: { storyLog: 5, storySummary: 1 },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.error).toMatchObject({ code: 'story_too_large' });
    const { data } = await owner.from('stories').select('revision').eq('id', id);
    expect(data).toEqual([{ revision: 2 }]);
    expect(await storyParts(owner, id)).toHaveLength(5);
  });

  test('a wallet keeps at most 100 stories', async () => {
    const wallet = Wallet.createRandom();
    const client = server.backend.forWallet({
      address: wallet.address.toLowerCase(),
      token: await signIn(server, wallet),
    });
    // 100 stories put in by the server's own key (it is not limited), then one more by the player.
    await server.db.pool.query(
      `insert into public.stories (id, wallet_address, revision, saved_at, language, head)
       select gen_random_uuid(), $1, 1, now(), 'en', '{}'::jsonb from generate_series(1, 100)`,
      [wallet.address.toLowerCase()],
    );
    const refused = await saveStory(client, { id: randomUUID() });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'story_limit' });
    // Saving one of the hundred again is still allowed.
    const { rows } = await server.db.pool.query<{ id: string }>(
      'select id from public.stories where wallet_address = $1 limit 1',
      [wallet.address.toLowerCase()],
    );
    expect((await saveStory(client, { id: rows[0]?.id ?? '', base: 1 })).data).toEqual([
      { saved: true, revision: 2 },
    ]);
  });

  test('writes are counted per wallet per minute; the one past the limit gets 429', async () => {
    const id = randomUUID();
    // Both minutes a test may straddle are nearly full.
    await server.db.pool.query(
      `insert into public.story_writes (wallet_address, minute, writes)
       select $1, date_trunc('minute', now()) + m * interval '1 minute', $2
       from generate_series(0, 1) as m`,
      [ownerWallet.address.toLowerCase(), WRITE_LIMIT - 1],
    );
    expect((await saveStory(owner, { id })).data).toEqual([{ saved: true, revision: 1 }]);
    const refused = await saveStory(owner, { id, base: 1 });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'rate_limited' });
    // The other wallet is not held up.
    expect((await saveStory(other, { id: randomUUID() })).error).toBeNull();
  });
});

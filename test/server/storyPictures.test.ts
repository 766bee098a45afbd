/**
 * A cloud story's pictures (migration 20261128000000_story_pictures.sql), through the real server
 * and supabase-js as the app calls them (cloud/cloudPictures.ts), on PGlite and on PostgreSQL:
 * only the story's wallet reads, writes or deletes them; anyone reads a published story's, and
 * no one else's; deleting the story deletes them; the database holds the bounds (256 KB a
 * picture, 40 a story, 20 MB a wallet) and refuses what is not the image it says it is.
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import type { BackendClient } from '../../src/api/backend';
import {
  deleteCloudPicture,
  fetchCloudPicture,
  listCloudPictures,
  savePictureToCloud,
} from '../../src/features/stories/cloud/cloudPictures';
import { CloudError } from '../../src/features/stories/cloud/cloudList';
import type { StoryPicture } from '../../src/features/stories/pictures/storyPicture';
import { DATABASE_START_TIMEOUT_MS, testBackends } from './support/databases';
import { signIn, startTestServer, type TestServer } from './support/testServer';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

const KB = 1024;

/** Bytes that begin as a WebP file does ("RIFF", a size, "WEBP"), `size` in all. */
function webpBytes(size: number, fill = 7): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]);
  return bytes;
}

function picture(turn: number, overrides: Partial<StoryPicture> = {}): StoryPicture {
  const blob = overrides.blob ?? new Blob([webpBytes(2 * KB, turn + 2)], { type: 'image/webp' });
  return {
    storyId: 1,
    turn,
    moment: turn === 0 ? 'opening' : turn === -1 ? 'ending' : 'moment',
    blob,
    mediaType: 'image/webp',
    width: 1024,
    height: 768,
    bytes: blob.size,
    alt: `The scene of turn ${turn}.`,
    model: 'test-image-model',
    createdAt: '2026-11-28T10:00:00.000Z',
    ...overrides,
  };
}

async function saveStory(client: BackendClient, id: string) {
  const { error } = await client.rpc('save_story', {
    p_id: id,
    p_base_revision: 0,
    p_saved_at: new Date().toISOString(),
    p_language: 'en',
    p_head: { chosenCharacter: 'Mira', isFinal: true, game: { isFinal: true } },
    p_lengths: { storyLog: 1 },
    p_parts: [{ list: 'storyLog', index: 0, value: { kind: 'paragraph', text: 'The tide.' } }],
  });
  expect(error).toBeNull();
}

/** The CloudError a call is refused with (the app's own naming of the answer). */
async function refusal(call: Promise<unknown>): Promise<CloudError> {
  const error: unknown = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CloudError);
  return error as CloudError;
}

describe.each(testBackends())('cloud story pictures on $name', (database) => {
  let server: TestServer;
  let owner: BackendClient;
  let other: BackendClient;
  let ownerAddress: string;

  const signedIn = async () => {
    const wallet = Wallet.createRandom();
    return {
      address: wallet.address.toLowerCase(),
      client: server.backend.forWallet({
        address: wallet.address.toLowerCase(),
        token: await signIn(server, wallet),
      }),
    };
  };

  beforeAll(async () => {
    server = await startTestServer(database, {
      SIGN_IN_RATE_LIMIT: '1000',
      STORY_WRITE_RATE_LIMIT: '1000',
    });
    const first = await signedIn();
    owner = first.client;
    ownerAddress = first.address;
    other = (await signedIn()).client;
  }, DATABASE_START_TIMEOUT_MS);
  afterAll(() => server.close(), STOP_TIMEOUT_MS);

  test('the owner keeps a picture, lists it and brings it down byte for byte', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    const opening = picture(0);
    await savePictureToCloud(owner, id, opening);
    await savePictureToCloud(owner, id, picture(3));
    expect(await listCloudPictures(owner, id)).toEqual([
      { turn: 0, createdAt: expect.any(String) },
      { turn: 3, createdAt: expect.any(String) },
    ]);

    const down = await fetchCloudPicture(owner, id, 0);
    expect(down).toMatchObject({
      turn: 0,
      moment: 'opening',
      width: 1024,
      height: 768,
      alt: 'The scene of turn 0.',
      model: 'test-image-model',
      createdAt: '2026-11-28T10:00:00.000Z',
    });
    expect(new Uint8Array(await down!.blob.arrayBuffer())).toEqual(
      new Uint8Array(await opening.blob.arrayBuffer()),
    );
    expect(down!.blob.type).toBe('image/webp');

    // Drawn again: the turn's picture is replaced, not added.
    await savePictureToCloud(owner, id, picture(3, { createdAt: '2026-11-28T11:00:00.000Z' }));
    const listed = await listCloudPictures(owner, id);
    expect(listed).toHaveLength(2);
    expect(Date.parse(listed[1]!.createdAt)).toBe(Date.parse('2026-11-28T11:00:00.000Z'));

    await deleteCloudPicture(owner, id, 3);
    expect((await listCloudPictures(owner, id)).map((entry) => entry.turn)).toEqual([0]);
  });

  test('another wallet can neither read, write nor delete a story’s pictures', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    await savePictureToCloud(owner, id, picture(0));

    expect(await listCloudPictures(other, id)).toEqual([]);
    expect(await fetchCloudPicture(other, id, 0)).toBeNull();
    const written = await refusal(savePictureToCloud(other, id, picture(1)));
    // Row-level security's: the story's, not the picture's (the round stops; sendingPictures.ts).
    expect(written).toMatchObject({ problem: 'failed', code: '42501' });
    const replaced = await refusal(
      savePictureToCloud(other, id, picture(0, { alt: 'Someone else’s picture.' })),
    );
    expect(replaced.problem).toBe('failed');
    const deleted = await other
      .from('story_pictures')
      .delete()
      .eq('story_id', id)
      .eq('turn', 0)
      .select('turn');
    expect(deleted.data).toEqual([]);
    const kept = await fetchCloudPicture(owner, id, 0);
    expect(kept?.alt).toBe('The scene of turn 0.');
    expect(await listCloudPictures(owner, id)).toHaveLength(1);
  });

  test('anyone reads a published story’s pictures, and no unpublished one’s', async () => {
    const published = randomUUID();
    const unpublished = randomUUID();
    await saveStory(owner, published);
    await saveStory(owner, unpublished);
    await savePictureToCloud(owner, published, picture(0));
    await savePictureToCloud(owner, unpublished, picture(0));
    const { anon } = server.backend;

    expect(await listCloudPictures(anon, published)).toEqual([]);
    expect((await owner.rpc('publish_story', { p_id: published, p_published: true })).error).toBe(
      null,
    );
    expect((await listCloudPictures(anon, published)).map((entry) => entry.turn)).toEqual([0]);
    expect((await fetchCloudPicture(anon, published, 0))?.alt).toBe('The scene of turn 0.');
    // Another wallet reads it as any reader does.
    expect((await listCloudPictures(other, published)).map((entry) => entry.turn)).toEqual([0]);
    // Nothing of the unpublished one, whoever asks.
    expect(await listCloudPictures(anon, unpublished)).toEqual([]);
    expect(await listCloudPictures(other, unpublished)).toEqual([]);
    // Nor may a visitor write or delete.
    const { status } = await anon.rpc('save_story_picture', {
      p_story_id: published,
      p_turn: 2,
      p_moment: 'moment',
      p_media_type: 'image/webp',
      p_data: 'UklGRgAAAABXRUJQ',
      p_width: 1,
      p_height: 1,
      p_alt: '',
      p_model: '',
      p_created_at: new Date().toISOString(),
    });
    expect(status).toBe(401);
    await anon.from('story_pictures').delete().eq('story_id', published);
    expect(await listCloudPictures(owner, published)).toHaveLength(1);

    // Taken down: its pictures are private again.
    await owner.rpc('publish_story', { p_id: published, p_published: false });
    expect(await listCloudPictures(anon, published)).toEqual([]);
  });

  test('deleting a story deletes its pictures', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    await savePictureToCloud(owner, id, picture(0));
    await savePictureToCloud(owner, id, picture(-1));
    await owner.from('stories').delete().eq('id', id);
    const { rows } = await server.db.pool.query(
      'select turn from public.story_pictures where story_id = $1',
      [id],
    );
    expect(rows).toEqual([]);
  });

  test('a picture past 256 KB, or not the image it says, is refused', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    const largest = new Blob([webpBytes(256 * KB)], { type: 'image/webp' });
    await savePictureToCloud(owner, id, picture(0, { blob: largest }));
    const tooLarge = new Blob([webpBytes(256 * KB + 1)], { type: 'image/webp' });
    const refused = await refusal(savePictureToCloud(owner, id, picture(1, { blob: tooLarge })));
    expect(refused.problem).toBe('picturesRefused');

    const notWebp = new Blob([new Uint8Array(4 * KB).fill(1)], { type: 'image/webp' });
    // A constraint of the picture's row: the picture's own refusal, not sent again.
    expect(
      await refusal(savePictureToCloud(owner, id, picture(2, { blob: notWebp }))),
    ).toMatchObject({ problem: 'failed', code: '23514' });
    const { error } = await owner.rpc('save_story_picture', {
      p_story_id: id,
      p_turn: 2,
      p_moment: 'moment',
      p_media_type: 'image/png',
      p_data: 'iVBORw0KGgo=',
      p_width: 1,
      p_height: 1,
      p_alt: '',
      p_model: '',
      p_created_at: new Date().toISOString(),
    });
    expect(error).toMatchObject({ code: '23514' });
    expect((await listCloudPictures(owner, id)).map((entry) => entry.turn)).toEqual([0]);
  });

  test('a story keeps at most 40 pictures; one drawn again for a kept turn still goes', async () => {
    const id = randomUUID();
    await saveStory(owner, id);
    for (const turn of [0, -1, ...Array.from({ length: 38 }, (_, index) => index + 1)]) {
      await savePictureToCloud(owner, id, picture(turn));
    }
    const refused = await refusal(savePictureToCloud(owner, id, picture(39)));
    expect(refused.problem).toBe('picturesRefused');
    expect(refused.message).toMatch(/40 pictures/);
    await savePictureToCloud(owner, id, picture(5, { alt: 'Drawn again.' }));
    expect((await fetchCloudPicture(owner, id, 5))?.alt).toBe('Drawn again.');
    expect(await listCloudPictures(owner, id)).toHaveLength(40);
  });

  test('a wallet keeps at most 20 MB of pictures, whichever stories they are of', async () => {
    const { client, address } = await signedIn();
    const full = [randomUUID(), randomUUID()];
    const last = randomUUID();
    for (const id of [...full, last]) await saveStory(client, id);
    // 2 stories of 40 pictures of 256 KB: 20 MB exactly, put in by the server's own key.
    await server.db.pool.query(
      `insert into public.story_pictures
         (story_id, turn, moment, media_type, data, width, height, alt, model, created_at)
       select story, turn, case when turn = 0 then 'opening' else 'moment' end, 'image/jpeg',
         pg_catalog.encode('\\xffd8ff'::bytea || pg_catalog.decode(repeat('00', 262141), 'hex'), 'base64'),
         1, 1, '', '', now()
       from unnest($1::uuid[]) as story, generate_series(0, 39) as turn`,
      [full],
    );
    const refused = await refusal(savePictureToCloud(client, last, picture(0)));
    expect(refused.problem).toBe('picturesRefused');
    expect(refused.message).toMatch(/20 MB/);
    expect(await listCloudPictures(client, last)).toEqual([]);
    // Another wallet is not held to this one's total.
    const id = randomUUID();
    await saveStory(owner, id);
    await savePictureToCloud(owner, id, picture(0));
    expect(ownerAddress).not.toBe(address);
  });
});

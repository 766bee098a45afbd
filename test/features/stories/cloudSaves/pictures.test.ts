/**
 * A story's pictures in the wallet's cloud (issue 41; devices.ts: real stores, each its own
 * fake-indexeddb, a real server on PGlite): a picture the laptop keeps goes up once, as one more
 * part of the story the pipeline writes, and comes down into the phone's MyStoriesDB with the
 * story; a picture the cloud refuses for a bound is said to the player and not sent again; a
 * picture let go on the laptop (its paragraph written again) goes from the cloud too.
 */
import { storiesActions } from '../../../../src/features/stories';
import {
  keepPicture,
  picturesOf,
  type PictureMoment,
  type StoriesDb,
} from '../../../../src/features/stories';
import { forgetPictureAt } from '../../../../src/features/stories/pictureStore';
import { DATABASE_START_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../../support/timeouts';
import type { TestServer } from '../../../server/support/testServer';
import { whenState } from '../../../support/storeEvents';
import { jpegBytes, pictureOf } from '../../../fixtures/storyPictures';
import {
  closeDevices,
  laptopWithStory,
  loadFromCloudOn,
  openDevice,
  startCloudServer,
  walletCloud,
  type Device,
  type WalletCloud,
} from './devices';

let server: TestServer;
beforeAll(async () => {
  server = await startCloudServer();
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), STOP_TIMEOUT_MS);
afterEach(closeDevices);

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/** The pictures the server keeps of the wallet's stories: turn, alt and size, by turn. */
async function cloudPictures(cloud: WalletCloud) {
  const { rows } = await cloud.server.db.pool.query<{ turn: number; alt: string; bytes: number }>(
    `select p.turn, p.alt, p.bytes from public.story_pictures p
     join public.stories s on s.id = p.story_id
     where s.wallet_address = $1 order by p.turn`,
    [cloud.address],
  );
  return rows;
}

/**
 * Until a round of sending that started after this call is over: 'sending' seen, then not. The
 * flows put 'sending' within the dispatch that starts a round, so the wait is set up first.
 */
function whenRoundDone(device: Device) {
  let seen = false;
  return whenState(
    device.store,
    (state) => {
      if (state.stories.cloud.sync.status === 'sending') seen = true;
      return seen && state.stories.cloud.sync.status !== 'sending';
    },
    `${device.name} finished a round of sending`,
  );
}

/** The picture flow's part, as it does it: kept in the device's MyStoriesDB, then shown. */
async function drawOn(
  device: Device,
  moment: PictureMoment,
  turn: number,
  overrides: Parameters<typeof pictureOf>[3] = {},
) {
  const db: StoriesDb = await device.db();
  const storyId = device.store.getState().stories.current!.id;
  const result = await keepPicture(db, pictureOf(storyId, moment, turn, overrides));
  if (!result.kept) throw new Error(`picture refused here: ${result.reason}`);
  const done = whenRoundDone(device);
  device.store.dispatch(storiesActions.pictureKept({ storyId, turn: result.picture.turn }));
  await done;
  return result.picture;
}

test('a picture kept on the laptop goes up once and comes down into the phone’s browser', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await laptopWithStory(cloud);
  const opening = await drawOn(laptop, 'opening', 0);
  expect(await cloudPictures(cloud)).toEqual([
    { turn: 0, alt: opening.alt, bytes: opening.blob.size },
  ]);

  // Another kept picture sends only itself, not the opening again.
  await drawOn(laptop, 'moment', 1);
  expect(cloud.picturesSent).toEqual([0, 1]);

  const phone = openDevice(cloud, 'the phone');
  await loadFromCloudOn(phone, row.id);
  const phoneId = phone.store.getState().stories.current!.id;
  const down = await picturesOf(await phone.db(), phoneId);
  expect(
    down.map(({ turn, moment, alt, width, height, mediaType, createdAt }) => ({
      turn,
      moment,
      alt,
      width,
      height,
      mediaType,
      createdAt,
    })),
  ).toEqual([
    {
      turn: 0,
      moment: 'opening',
      alt: opening.alt,
      width: 768,
      height: 512,
      mediaType: 'image/webp',
      createdAt: opening.createdAt,
    },
    expect.objectContaining({ turn: 1, moment: 'moment' }),
  ]);
  expect(await bytesOf(down[0]!.blob)).toEqual(await bytesOf(opening.blob));
  // What came down is not sent back up by the phone.
  expect(cloud.picturesSent).toEqual([0, 1]);
}, 60_000);

test('a picture the cloud refuses for a bound is said, and not sent again', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await laptopWithStory(cloud);
  // The wallet's 20 MB is all but full: another story's 80 pictures of 256 KB, less 1 KB.
  await server.db.pool.query(
    `insert into public.stories (id, wallet_address, revision, saved_at, language, head)
     select gen_random_uuid(), $1, 1, now(), 'en', '{}'::jsonb from generate_series(1, 2)`,
    [cloud.address],
  );
  await server.db.pool.query(
    `insert into public.story_pictures
       (story_id, turn, moment, media_type, data, width, height, alt, model, created_at)
     select s.id, t, case when t = 0 then 'opening' else 'moment' end, 'image/jpeg',
       encode('\\xffd8ff'::bytea || decode(repeat('00', case when t = 39 then 261117 else 262141 end), 'hex'), 'base64'),
       1, 1, '', '', now()
     from public.stories s, generate_series(0, 39) as t
     where s.wallet_address = $1 and s.id <> $2`,
    [cloud.address, row.id],
  );
  const ending = await drawOn(laptop, 'ending', 1, {
    blob: new Blob([jpegBytes(4096)], { type: 'image/jpeg' }),
  });
  expect(laptop.store.getState().stories.cloud.sync).toEqual({
    status: 'idle',
    problem: 'picturesRefused',
  });
  expect(cloud.picturesSent).toEqual([-1]);
  expect((await cloudPictures(cloud)).some((picture) => picture.alt === ending.alt)).toBe(false);

  // The next round (another picture, which fits) does not send the refused one again.
  await drawOn(laptop, 'opening', 0, { blob: new Blob([jpegBytes(512)], { type: 'image/jpeg' }) });
  expect(cloud.picturesSent).toEqual([-1, 0]);
  expect(laptop.store.getState().stories.cloud.sync).toEqual({ status: 'idle', problem: null });
  // Still kept in the browser.
  const here = await picturesOf(await laptop.db(), laptop.store.getState().stories.current!.id);
  expect(here.map((picture) => picture.turn)).toEqual([0, -1]);
}, 60_000);

test('a picture let go on the laptop goes from the cloud with the next round', async () => {
  const cloud = await walletCloud(server);
  const { laptop } = await laptopWithStory(cloud);
  await drawOn(laptop, 'opening', 0);
  await drawOn(laptop, 'moment', 1);
  expect((await cloudPictures(cloud)).map((picture) => picture.turn)).toEqual([0, 1]);

  const storyId = laptop.store.getState().stories.current!.id;
  await forgetPictureAt(await laptop.db(), storyId, 1);
  // Its own round deletes it from the cloud; a picture kept while that round runs waits for the
  // next one, so the next picture is drawn once this round is done.
  const forgotten = whenRoundDone(laptop);
  laptop.store.dispatch(storiesActions.pictureForgotten({ storyId, turn: 1 }));
  await forgotten;
  expect((await cloudPictures(cloud)).map((picture) => picture.turn)).toEqual([0]);
  await drawOn(laptop, 'moment', 2);
  expect((await cloudPictures(cloud)).map((picture) => picture.turn)).toEqual([0, 2]);
}, 60_000);

test('a picture the browser merely lacks stays in the cloud', async () => {
  const cloud = await walletCloud(server);
  const { laptop } = await laptopWithStory(cloud);
  await drawOn(laptop, 'opening', 0);
  await drawOn(laptop, 'moment', 1);
  // Gone from this browser without being let go by the story (a picture that never came down
  // here, say): the next round sends what is new, and deletes nothing.
  const storyId = laptop.store.getState().stories.current!.id;
  await forgetPictureAt(await laptop.db(), storyId, 1);
  await drawOn(laptop, 'moment', 2);
  expect((await cloudPictures(cloud)).map((picture) => picture.turn)).toEqual([0, 1, 2]);
}, 60_000);

test('a device that starts sending sends the pictures its stories keep', async () => {
  const cloud = await walletCloud(server);
  const { laptop } = await laptopWithStory(cloud);
  const db = await laptop.db();
  const storyId = laptop.store.getState().stories.current!.id;
  // Kept while cloud saves were off (or before this visit's flows started).
  await keepPicture(db, pictureOf(storyId, 'opening', 0));
  closeDevices();

  // The same browser opened again: sending starts, and the picture goes up.
  const again = openDevice(cloud, 'the laptop again', { shareBrowserOf: laptop });
  await whenState(
    again.store,
    () =>
      cloud.picturesSent.length > 0 && again.store.getState().stories.cloud.sync.status === 'idle',
    'the laptop sent the picture it keeps',
  );
  expect(cloud.picturesSent).toEqual([0]);
  expect((await cloudPictures(cloud)).map((picture) => picture.turn)).toEqual([0]);
}, 60_000);

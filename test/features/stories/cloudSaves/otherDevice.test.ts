/**
 * Another device of the wallet (devices.ts: real stores, each its own fake-indexeddb, a real
 * server on PGlite): a phone that keeps nothing of its own finds the laptop's story in the
 * wallet's cloud list, whether or not it keeps its own saves there (reading the list needs no
 * setting), and loads it at the same turn, the very same story; the phone's turn goes up as the
 * story's next revision; and a device that has the story but not its newer turns brings them
 * down into its own record when it reads the list again.
 */
import { gameActions } from '../../../../src/features/game';
import { storiesActions } from '../../../../src/features/stories';
import { DATABASE_START_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../../support/timeouts';
import type { TestServer } from '../../../server/support/testServer';
import { whenState } from '../../../support/storeEvents';
import {
  closeDevices,
  laptopWithStory,
  loadFromCloudOn,
  openDevice,
  playTurnAndSend,
  startCloudServer,
  walletCloud,
  whenListedElsewhere,
  whenPlaying,
} from './devices';

const TURNS = [
  'Edda climbed; the stair counted her steps back to her in a whisper.',
  'At the top, the lamp burned with a cold green flame that gave no heat.',
];

let server: TestServer;
beforeAll(async () => {
  server = await startCloudServer();
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), STOP_TIMEOUT_MS);
afterEach(closeDevices);

test('a phone lists the laptop’s story as kept elsewhere and loads it at the same turn', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await laptopWithStory(cloud, TURNS);

  // The phone: nothing of its own; the wallet's story is listed as kept elsewhere.
  const phone = openDevice(cloud, 'the phone');
  const elsewhere = await whenListedElsewhere(phone, (listed) => listed.id === row.id);
  expect(phone.store.getState().stories.list.stories).toEqual([]);
  expect(phone.elsewhere()).toHaveLength(1);
  expect(elsewhere).toMatchObject({ id: row.id, chosenCharacter: 'Edda Marrow', turnCount: 2 });

  phone.store.dispatch(storiesActions.cloudLoadRequested(row.id));
  await whenPlaying(phone);
  // Same turn, same rolls, same memory and all.
  expect(phone.store.getState().game.story).toEqual(laptop.store.getState().game.story);
  expect(phone.store.getState().stories.current?.cloudId).toBe(row.id);
}, 60_000);

test('a phone that does not keep its saves with the wallet still lists its stories and loads them', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await laptopWithStory(cloud, TURNS);

  const phone = openDevice(cloud, 'the phone', { cloudSaves: false });
  const elsewhere = await whenListedElsewhere(phone, (listed) => listed.id === row.id);
  expect(phone.store.getState().settings.cloudSaves).toBe(false);
  expect(phone.elsewhere()).toHaveLength(1);
  expect(elsewhere).toMatchObject({ id: row.id, chosenCharacter: 'Edda Marrow', turnCount: 2 });

  phone.store.dispatch(storiesActions.cloudLoadRequested(row.id));
  await whenPlaying(phone);
  expect(phone.store.getState().game.story).toEqual(laptop.store.getState().game.story);
  expect(phone.store.getState().stories.current?.cloudId).toBe(row.id);
}, 60_000);

test('the phone’s turn goes up as the story’s next revision', async () => {
  const cloud = await walletCloud(server);
  const { row } = await laptopWithStory(cloud, TURNS);
  const phone = openDevice(cloud, 'the phone');
  await loadFromCloudOn(phone, row.id);

  await playTurnAndSend(
    phone,
    'From the phone: the green flame bent toward the sea, as if it listened.',
  );
  expect(await cloud.rows()).toEqual([{ id: row.id, revision: row.revision + 1, copy_of: null }]);
}, 60_000);

test('a device that has a story but not its newer turns brings them down when it lists', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await laptopWithStory(cloud);
  const phone = openDevice(cloud, 'the phone');
  await loadFromCloudOn(phone, row.id);
  // The phone leaves the story; the laptop plays on.
  phone.store.dispatch(gameActions.returnedHome());
  const later = 'Back on the laptop: a second lamp was lit across the bay.';
  await playTurnAndSend(laptop, later);

  // The phone lists again: its stories, and the wallet's read again.
  phone.store.dispatch(storiesActions.savedStoriesRequested());
  phone.readCloudListAgain();
  await whenState(
    phone.store,
    ({ stories: { list } }) =>
      list.status === 'loaded' && list.stories.some((s) => s.previousParagraph === later),
    'the phone has the laptop’s turn',
  );
  // Brought down into the phone's own record, not listed as another story.
  expect(phone.store.getState().stories.list.stories).toHaveLength(1);
  expect(phone.elsewhere()).toEqual([]);
}, 60_000);

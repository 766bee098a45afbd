/**
 * Deleting goes everywhere (devices.ts: real stores, each its own fake-indexeddb, a real server
 * on PGlite): the phone deletes the story it loaded from the wallet's cloud; it is gone from the
 * cloud, and the laptop, reading the list again, lists it no more (nor keeps its own copy of a
 * story deleted elsewhere).
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
  startCloudServer,
  walletCloud,
} from './devices';

let server: TestServer;
beforeAll(async () => {
  server = await startCloudServer();
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), STOP_TIMEOUT_MS);
afterEach(closeDevices);

test('deleting on the phone deletes the story in the cloud, and the laptop lists it no more', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await laptopWithStory(cloud);
  laptop.store.dispatch(gameActions.returnedHome());
  const phone = openDevice(cloud, 'the phone');
  await loadFromCloudOn(phone, row.id);

  phone.store.dispatch(storiesActions.deleteConfirmed(phone.store.getState().stories.current!.id));
  // Deleted in the cloud: the phone's list, read again after the delete, no longer has it.
  await whenState(
    phone.store,
    () => phone.cloudList()?.every((listed) => listed.id !== row.id) === true,
    'the phone’s cloud list no longer has the story',
  );
  expect(await cloud.rows()).toEqual([]);

  // The laptop lists again: its stories, and the wallet's read again.
  laptop.store.dispatch(storiesActions.savedStoriesRequested());
  laptop.readCloudListAgain();
  await whenState(
    laptop.store,
    ({ stories: { list } }) =>
      list.status === 'loaded' &&
      list.stories.length === 0 &&
      laptop.cloudList()?.every((listed) => listed.id !== row.id) === true,
    'the laptop no longer lists the story',
  );
  expect(laptop.elsewhere()).toEqual([]);
}, 60_000);

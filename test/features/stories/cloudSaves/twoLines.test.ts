/**
 * One story played on at once on two devices of the wallet (devices.ts: real stores, each its
 * own fake-indexeddb, a real server on PGlite): the phone loaded the laptop's story and its turn
 * went up; the laptop, not knowing, plays on too. Its save, made on a revision the phone has
 * moved past, is kept in the cloud as a copy of the story, never written over the phone's line
 * nor lost; the laptop is told and plays on in the copy; and it lists the phone's line beside
 * its own.
 */
import { storiesActions } from '../../../../src/features/stories';
import { DATABASE_START_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../../support/timeouts';
import type { TestServer } from '../../../server/support/testServer';
import { whenState } from '../../../support/storeEvents';
import {
  closeDevices,
  laptopWithStory,
  loadFromCloudOn,
  openDevice,
  playTurn,
  playTurnAndSend,
  startCloudServer,
  walletCloud,
  whenListedElsewhere,
  whenSent,
  type WalletCloud,
} from './devices';

const PHONE_TURN = 'From the phone: the green flame bent toward the sea, as if it listened.';
const LAPTOP_TURN = 'From the laptop: Edda snuffed the flame, and the sea went silent.';

let server: TestServer;
beforeAll(async () => {
  server = await startCloudServer();
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), STOP_TIMEOUT_MS);
afterEach(closeDevices);

/** The phone's turn in the cloud, then the laptop's turn on the revision before it, sent. */
async function playedOnBoth(cloud: WalletCloud) {
  const { laptop, row } = await laptopWithStory(cloud);
  const phone = openDevice(cloud, 'the phone');
  await loadFromCloudOn(phone, row.id);
  await playTurnAndSend(phone, PHONE_TURN);
  playTurn(laptop, LAPTOP_TURN);
  await whenState(
    laptop.store,
    (state) => state.stories.cloud.keptAsCopy !== null,
    'the laptop is told its save was kept as a copy',
  );
  await whenSent(laptop);
  return { laptop, phone, row };
}

test('a stale save is kept as a copy: the laptop is told, and plays on in the copy', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await playedOnBoth(cloud);
  expect(laptop.store.getState().stories.cloud.keptAsCopy).toEqual({ name: 'Edda Marrow' });
  const rows = await cloud.rows();
  expect(rows).toHaveLength(2);
  // The phone's line stays as it went up.
  expect(rows).toContainEqual({ id: row.id, revision: row.revision + 1, copy_of: null });
  const copy = rows.find((r) => r.id !== row.id)!;
  expect(copy.copy_of).toBe(row.id);
  expect(laptop.store.getState().stories.current?.cloudId).toBe(copy.id);

  // The laptop's next turn goes to the copy, as its next revision.
  await playTurnAndSend(laptop, 'Still on the laptop: in the dark, Edda heard the ships at last.');
  expect(await cloud.rows()).toEqual(
    expect.arrayContaining([
      { id: row.id, revision: row.revision + 1, copy_of: null },
      { id: copy.id, revision: copy.revision + 1, copy_of: row.id },
    ]),
  );
  expect(await cloud.rows()).toHaveLength(2);
}, 60_000);

test('the phone’s line is listed on the laptop beside its copy', async () => {
  const cloud = await walletCloud(server);
  const { laptop, row } = await playedOnBoth(cloud);
  const copyId = laptop.store.getState().stories.current!.cloudId!;

  laptop.store.dispatch(storiesActions.savedStoriesRequested());
  const phoneLine = await whenListedElsewhere(laptop, (listed) => listed.id === row.id);
  await whenState(
    laptop.store,
    ({ stories: { list } }) => list.status === 'loaded' && list.stories.length === 1,
    'the laptop lists its own story',
  );
  expect(phoneLine).toMatchObject({ previousParagraph: PHONE_TURN, revision: row.revision + 1 });
  // Its own line is the copy, kept here: it is not listed again as kept elsewhere.
  expect(laptop.store.getState().stories.list.stories[0]).toMatchObject({
    previousParagraph: LAPTOP_TURN,
    cloud: { id: copyId },
  });
  expect(laptop.elsewhere().map((listed) => listed.id)).toEqual([row.id]);
}, 60_000);

/**
 * Cloud saves going up from one device (devices.ts: a real store, its own fake-indexeddb, a real
 * server on PGlite): a story saved on a laptop is kept in the browser first and the same record
 * then goes up to the wallet's cloud, one story, no copy; and a turn sends only what changed,
 * the new entries, never the whole story again.
 */
import type { Story } from '../../../../src/features/game';
import { DATABASE_START_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../../../support/timeouts';
import type { TestServer } from '../../../server/support/testServer';
import {
  closeDevices,
  openDevice,
  playTurn,
  saveStoryOn,
  startCloudServer,
  story,
  walletCloud,
  whenSavedHere,
  whenSent,
} from './devices';

let server: TestServer;
beforeAll(async () => {
  server = await startCloudServer();
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), STOP_TIMEOUT_MS);
afterEach(closeDevices);

test('a story saved on a laptop goes up: one story in the cloud, not a copy', async () => {
  const cloud = await walletCloud(server);
  const laptop = openDevice(cloud, 'the laptop');
  await saveStoryOn(laptop);
  playTurn(laptop, 'Edda climbed; the stair counted her steps back to her in a whisper.');
  playTurn(laptop, 'At the top, the lamp burned with a cold green flame that gave no heat.');
  await whenSavedHere(laptop, 3);
  await whenSent(laptop);

  const rows = await cloud.rows();
  expect(rows).toEqual([{ id: expect.any(String), revision: expect.any(Number), copy_of: null }]);
  expect(rows[0]!.id).toBe(laptop.store.getState().stories.current?.cloudId);
}, 60_000);

test('a turn sends only what changed: the new entries, not the whole story', async () => {
  const cloud = await walletCloud(server);
  const device = openDevice(cloud, 'the device');
  const long: Story = {
    ...story,
    storyLog: Array.from({ length: 80 }, (_, i) => ({
      kind: 'paragraph' as const,
      text: `Paragraph ${i}: the keeper wrote the weather in the log, as every night.`,
    })),
    storySummary: Array.from({ length: 40 }, (_, i) => `Night ${i} passed.`),
  };
  // The manual save, then the auto-save that follows the resumed story, have both gone up.
  await saveStoryOn(device, long);

  cloud.saveSizes.splice(0);
  playTurn(device, 'The eighty-first night, a ship answered the lamp at last.');
  await whenSavedHere(device, 3);
  await whenSent(device);
  const whole = JSON.stringify(long).length;
  expect(cloud.saveSizes).toHaveLength(1);
  expect(cloud.saveSizes[0]).toBeLessThan(whole / 4);
  // The 80 paragraphs, the turn's choice and its paragraph.
  expect(await cloud.storyLogParts()).toBe(82);
}, 60_000);

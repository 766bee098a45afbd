/**
 * Cloud saves between two devices of one wallet: each a real store (makeStore) with the real
 * flows and its own fake-indexeddb MyStoriesDB, both signed in with a real token from the real
 * server (PGlite) that keeps the stories. A story played on one device continues on the other
 * at the same turn; a save made on a revision another device has moved past is kept as a copy;
 * deleting deletes everywhere; only what changed goes up with a turn.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { Wallet } from 'ethers';
import type { Backend } from '../../../src/api';
import { makeStore, type AppStore } from '../../../src/app/store';
import {
  gameActions,
  initialGameState,
  initialStory,
  selectGameStage,
  type ResolvedChoice,
  type Story,
} from '../../../src/features/game';
import { initialSettingsState } from '../../../src/features/settings';
import { openStoriesDb, storiesActions } from '../../../src/features/stories';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../../server/support/databases';
import { signIn, startTestServer, type TestServer } from '../../server/support/testServer';
import { verifiedWallet } from '../../fixtures/walletSessions';

const OPENING = 'The lighthouse keeper found the lamp already lit, and no one on the stair.';
const OPTIONS = [
  { text: 'Climb to the lamp', risk: 'high', alignment: 'neutral', traitAlignment: '' },
  { text: 'Call out', risk: 'low', alignment: 'moral', traitAlignment: '' },
] as const;

const story: Story = {
  ...initialStory,
  chosenGenre: 'Gothic Mystery',
  chosenImage: 12,
  chosenCharacter: 'Edda Marrow',
  characterBio: 'A lighthouse keeper who counts the ships that never come.',
  storyLog: [{ kind: 'paragraph', text: OPENING }],
  previousParagraph: OPENING,
  storySummary: ['Edda found the lamp lit.'],
  options: [...OPTIONS],
};

let server: TestServer;
let wallet: Wallet;
let token: string;
const stores: AppStore[] = [];

beforeAll(async () => {
  server = await startTestServer(testBackends()[0]!, { SIGN_IN_RATE_LIMIT: '1000' });
  wallet = Wallet.createRandom() as unknown as Wallet;
  token = await signIn(server, wallet);
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), 60_000);
afterEach(() => stores.splice(0).forEach((store) => store.stop()));

async function until(what: string, check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 1000; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** The size of each save_story call's arguments, as sent. */
const saveSizes: number[] = [];

/** The server's clients, with each save's size noted. */
const backend = async (): Promise<Backend> => ({
  anon: server.backend.anon,
  forWallet: (session) => {
    const client = server.backend.forWallet(session);
    return {
      ...client,
      rpc: (fn, args) => {
        if (fn === 'save_story') saveSizes.push(JSON.stringify(args).length);
        return client.rpc(fn, args);
      },
    };
  },
});

/** A device: its own browser storage, the wallet signed in, cloud saves on, its list shown. */
function openDevice(): AppStore {
  const factory = new IDBFactory();
  const address = wallet.address.toLowerCase();
  const store = makeStore({
    preloadedState: {
      game: { ...initialGameState, turn: { phase: 'home' }, apiKey: 'sk-session' },
      wallet: verifiedWallet(address, {
        address,
        token,
        expiresAt: Date.now() + 3_600_000,
      }),
      settings: { ...initialSettingsState, cloudSaves: true },
    },
    backend,
    context: { openStoriesDb: () => openStoriesDb(factory), openTabChannel: () => null },
  });
  stores.push(store);
  store.dispatch(storiesActions.savedStoriesRequested());
  return store;
}

function playTurn(store: AppStore, paragraph: string) {
  const choice: ResolvedChoice = {
    turn: store.getState().game.story.turnCount + 1,
    option: { ...OPTIONS[0] },
    freeText: false,
    outcome: 'success',
    scenarioType: 'standard',
    outcomesSoFar: ['success'],
  };
  store.dispatch(gameActions.outcomeRolled(choice));
  store.dispatch(gameActions.scenarioPicked(choice));
  store.dispatch(gameActions.segmentReceived({ text: paragraph, isFinal: false }));
  store.dispatch(gameActions.optionsOffered([...OPTIONS]));
  store.dispatch(gameActions.summaryStored(`Summary: ${paragraph}`));
}

const cloudRows = async () =>
  (
    await server.db.pool.query<{ id: string; revision: number; copy_of: string | null }>(
      'select id, revision, copy_of from public.stories where wallet_address = $1 order by saved_at',
      [wallet.address.toLowerCase()],
    )
  ).rows;

/** Until the cloud has this device's last save of the story it plays. */
const sent = (store: AppStore) =>
  until('the save went up', async () => {
    const { current, cloud } = store.getState().stories;
    if (!current?.cloudId || cloud.sync.status !== 'idle') return false;
    const { rows } = await server.db.pool.query<{ saved_at: Date }>(
      'select saved_at from public.stories where id = $1',
      [current.cloudId],
    );
    return rows[0]?.saved_at.toISOString() === current.lastSaved;
  });

test('a story played on a laptop goes on from a phone at the same turn; a stale save becomes a copy; delete goes everywhere', async () => {
  await server.db.pool.query('delete from public.stories');
  const laptop = openDevice();
  await until('the laptop lists', () => laptop.getState().stories.list.status === 'loaded');
  laptop.dispatch(gameActions.savedStoryResumed(story));
  laptop.dispatch(storiesActions.saveRequested());
  await until('saved here', () => laptop.getState().stories.current !== null);
  playTurn(laptop, 'Edda climbed; the stair counted her steps back to her in a whisper.');
  playTurn(laptop, 'At the top, the lamp burned with a cold green flame that gave no heat.');
  await until('two turns saved here', () => laptop.getState().stories.current?.revision === 2);
  laptop.dispatch(storiesActions.savedStoriesRequested());
  await sent(laptop);
  const [row] = await cloudRows();
  expect(row).toMatchObject({ revision: expect.any(Number), copy_of: null });

  // The phone: nothing of its own; the wallet's story is listed as kept elsewhere.
  const phone = openDevice();
  await until(
    'the phone lists the cloud',
    () => phone.getState().stories.cloud.elsewhere.length === 1,
  );
  expect(phone.getState().stories.list.stories).toEqual([]);
  const [elsewhere] = phone.getState().stories.cloud.elsewhere;
  expect(elsewhere).toMatchObject({ id: row!.id, chosenCharacter: 'Edda Marrow', turnCount: 2 });
  phone.dispatch(storiesActions.cloudLoadRequested(row!.id));
  await until('the phone plays it', () => selectGameStage(phone.getState()) === 'playing');
  // Same turn, same rolls, same memory and all.
  expect(phone.getState().game.story).toEqual(laptop.getState().game.story);
  expect(phone.getState().stories.current?.cloudId).toBe(row!.id);

  // The phone plays on: its turn goes up as the story's next revision.
  playTurn(phone, 'From the phone: the green flame bent toward the sea, as if it listened.');
  await until('the phone saved', () => phone.getState().stories.current?.revision === 2);
  await sent(phone);
  expect(await cloudRows()).toEqual([{ id: row!.id, revision: row!.revision + 1, copy_of: null }]);

  // The laptop, not knowing, plays on too: its save is kept as a copy, the phone's line stays.
  playTurn(laptop, 'From the laptop: Edda snuffed the flame, and the sea went silent.');
  await until('the laptop is told', () => laptop.getState().stories.cloud.keptAsCopy !== null);
  expect(laptop.getState().stories.cloud.keptAsCopy).toEqual({ name: 'Edda Marrow' });
  await sent(laptop);
  const rows = await cloudRows();
  expect(rows).toHaveLength(2);
  const copy = rows.find((r) => r.id !== row!.id)!;
  expect(copy.copy_of).toBe(row!.id);
  expect(laptop.getState().stories.current?.cloudId).toBe(copy.id);

  // The phone's line is listed on the laptop, beside its own copy.
  laptop.dispatch(storiesActions.savedStoriesRequested());
  await until('the laptop lists the phone’s line', () =>
    laptop.getState().stories.cloud.elsewhere.some((s) => s.id === row!.id),
  );

  // The phone deletes the story: gone from the cloud, and from the laptop's list on refresh.
  const phoneRecord = phone.getState().stories.current!.id;
  phone.dispatch(storiesActions.deleteConfirmed(phoneRecord));
  await until('deleted in the cloud', async () => (await cloudRows()).length === 1);
  laptop.dispatch(storiesActions.savedStoriesRequested());
  await until('the laptop no longer lists it', () =>
    laptop.getState().stories.cloud.elsewhere.every((s) => s.id !== row!.id),
  );
}, 60_000);

test('a turn sends only what changed: the new entries, not the whole story', async () => {
  await server.db.pool.query('delete from public.stories');
  const device = openDevice();
  await until('it lists', () => device.getState().stories.list.status === 'loaded');
  const long: Story = {
    ...story,
    storyLog: Array.from({ length: 80 }, (_, i) => ({
      kind: 'paragraph' as const,
      text: `Paragraph ${i}: the keeper wrote the weather in the log, as every night.`,
    })),
    storySummary: Array.from({ length: 40 }, (_, i) => `Night ${i} passed.`),
  };
  device.dispatch(gameActions.savedStoryResumed(long));
  device.dispatch(storiesActions.saveRequested());
  await until('saved', () => device.getState().stories.current !== null);
  await sent(device);

  // The manual save, then the auto-save that follows the resumed story, have both gone up.
  await until('auto-saved', () => device.getState().stories.current?.revision === 2);
  await sent(device);
  saveSizes.splice(0);
  const before = device.getState().stories.current!.revision;
  playTurn(device, 'The eighty-first night, a ship answered the lamp at last.');
  await until('the turn is saved here', () => device.getState().stories.current!.revision > before);
  await sent(device);
  const whole = JSON.stringify(long).length;
  expect(saveSizes).toHaveLength(1);
  expect(saveSizes[0]).toBeLessThan(whole / 4);
  const { rows } = await server.db.pool.query<{ count: string }>(
    `select count(*) from public.story_parts where list = 'storyLog'`,
  );
  expect(Number(rows[0]!.count)).toBe(82);
}, 60_000);

test('a device that has a story but not its newer turns brings them down when it lists', async () => {
  await server.db.pool.query('delete from public.stories');
  const laptop = openDevice();
  await until('the laptop lists', () => laptop.getState().stories.list.status === 'loaded');
  laptop.dispatch(gameActions.savedStoryResumed(story));
  laptop.dispatch(storiesActions.saveRequested());
  await until('saved', () => laptop.getState().stories.current !== null);
  await sent(laptop);

  const phone = openDevice();
  await until('the phone lists it', () => phone.getState().stories.cloud.elsewhere.length === 1);
  phone.dispatch(
    storiesActions.cloudLoadRequested(phone.getState().stories.cloud.elsewhere[0]!.id),
  );
  await until('the phone plays it', () => selectGameStage(phone.getState()) === 'playing');
  // The phone leaves the story; the laptop plays on.
  phone.dispatch(gameActions.returnedHome());
  const later = 'Back on the laptop: a second lamp was lit across the bay.';
  const before = laptop.getState().stories.current!.revision;
  playTurn(laptop, later);
  await until('the laptop saved', () => laptop.getState().stories.current!.revision > before);
  await sent(laptop);

  phone.dispatch(storiesActions.savedStoriesRequested());
  await until('the phone has the laptop’s turn', () =>
    phone.getState().stories.list.stories.some((s) => s.previousParagraph === later),
  );
  // Brought down into the phone's own record, not listed as another story.
  expect(phone.getState().stories.list.stories).toHaveLength(1);
  expect(phone.getState().stories.cloud.elsewhere).toEqual([]);
}, 60_000);

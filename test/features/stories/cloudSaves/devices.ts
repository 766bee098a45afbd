/**
 * The devices of one wallet for the cloud-saves tests (cloudSaves/*.test.ts): each a real store
 * (makeStore) with the real flows and its own fake-indexeddb MyStoriesDB, signed in with a real
 * token from a real server on PGlite that keeps the stories, its saved-stories list shown (the
 * browser's list asked for, and the wallet's cloud list read as the list's view reads it: RTK
 * Query's `cloudStories`, the backend API injected as the game's page does). Every test signs
 * in a wallet of its own, so its stories in the server are its own too. What a test waits for
 * is a fact of a device's state, woken by the store's events (test/support/storeEvents.ts); what
 * the server keeps is read once the device has heard it happened.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { Wallet } from 'ethers';
import { baseApi, type Backend } from '../../../../src/api';
import { injectBackendApi, makeStore, type AppStore } from '../../../../src/app/store';
import {
  gameActions,
  initialGameState,
  initialStory,
  selectGameStage,
  type ResolvedChoice,
  type Story,
} from '../../../../src/features/game';
import { initialSettingsState } from '../../../../src/features/settings';
import { openStoriesDb, storiesActions, type StoriesDb } from '../../../../src/features/stories';
import { cloudApi, selectCloudStories } from '../../../../src/features/stories/cloud/cloudApi';
import { elsewhereOf, type CloudStory } from '../../../../src/features/stories/cloud/cloudModel';
import { testBackends } from '../../../server/support/databases';
import { signIn, startTestServer, type TestServer } from '../../../server/support/testServer';
import { verifiedWallet } from '../../../fixtures/walletSessions';
import { whenSelected, whenState } from '../../../support/storeEvents';

const OPENING = 'The lighthouse keeper found the lamp already lit, and no one on the stair.';
const OPTIONS = [
  { text: 'Climb to the lamp', risk: 'high', alignment: 'neutral', traitAlignment: '' },
  { text: 'Call out', risk: 'low', alignment: 'moral', traitAlignment: '' },
] as const;

/** The story the tests play: an opening, its summary and its choices. */
export const story: Story = {
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

/** The server the wallets keep their stories in (one per test file). */
export const startCloudServer = () =>
  startTestServer(testBackends()[0]!, { SIGN_IN_RATE_LIMIT: '1000' });

/** A story as the server keeps it. */
export interface CloudRow {
  id: string;
  revision: number;
  copy_of: string | null;
}

/** One wallet signed in on a server: what its devices share, and what the server keeps of it. */
export interface WalletCloud {
  server: TestServer;
  /** The wallet's address, lowercased (as the session and the list's query have it). */
  address: string;
  token: string;
  /** The size of each save_story call's arguments, as this wallet's devices sent them. */
  saveSizes: number[];
  /** The turn of each picture this wallet's devices sent (save_story_picture), in order. */
  picturesSent: number[];
  /** The wallet's stories in the server, oldest save first. */
  rows(): Promise<CloudRow[]>;
  /** How many storyLog entries the server keeps of the wallet's stories. */
  storyLogParts(): Promise<number>;
}

/** A new wallet, signed in on `server`. */
export async function walletCloud(server: TestServer): Promise<WalletCloud> {
  const wallet = Wallet.createRandom();
  const address = wallet.address.toLowerCase();
  const token = await signIn(server, wallet);
  return {
    server,
    address,
    token,
    saveSizes: [],
    picturesSent: [],
    rows: async () =>
      (
        await server.db.pool.query<CloudRow>(
          `select id, revision, copy_of from public.stories where wallet_address = $1
           order by saved_at`,
          [address],
        )
      ).rows,
    storyLogParts: async () => {
      const { rows } = await server.db.pool.query<{ count: string }>(
        `select count(*) from public.story_parts p join public.stories s on s.id = p.story_id
         where s.wallet_address = $1 and p.list = 'storyLog'`,
        [address],
      );
      return Number(rows[0]!.count);
    },
  };
}

/** The server's clients, with each save's size noted. */
const backendOf = (cloud: WalletCloud) => async (): Promise<Backend> => ({
  anon: cloud.server.backend.anon,
  forWallet: (session) => {
    const client = cloud.server.backend.forWallet(session);
    return {
      ...client,
      rpc: (fn, args) => {
        if (fn === 'save_story') cloud.saveSizes.push(JSON.stringify(args).length);
        if (fn === 'save_story_picture')
          cloud.picturesSent.push((args as { p_turn: number }).p_turn);
        return client.rpc(fn, args);
      },
    };
  },
});

export interface Device {
  name: string;
  store: AppStore;
  /** The wallet's cloud list as this device last read it, or undefined before it has. */
  cloudList(): CloudStory[] | undefined;
  /** The wallet's cloud stories this device does not keep, as its list shows them. */
  elsewhere(): CloudStory[];
  /** Reads the wallet's cloud list again (its query fetched anew). */
  readCloudListAgain(): void;
  /** This device's own MyStoriesDB. */
  db(): Promise<StoriesDb>;
  /** Its browser's storage, which the same browser opened again shares. */
  factory: IDBFactory;
}

const open: { store: AppStore; unsubscribe: () => void }[] = [];

/**
 * Every device opened since the last call: its list's query let go and its cache cleared (no
 * timer left to keep the cache a minute), its flows stopped.
 */
export function closeDevices() {
  for (const { store, unsubscribe } of open.splice(0)) {
    unsubscribe();
    store.dispatch(cloudApi.util.resetApiState());
    store.stop();
  }
}

/**
 * A device of the wallet: its own browser storage (or another device's, opened again), the
 * wallet signed in, cloud saves on (or not), its saved-stories list shown.
 */
export function openDevice(
  cloud: WalletCloud,
  name: string,
  { cloudSaves = true, shareBrowserOf }: { cloudSaves?: boolean; shareBrowserOf?: Device } = {},
): Device {
  const factory = shareBrowserOf?.factory ?? new IDBFactory();
  const { address, token } = cloud;
  const store = makeStore({
    preloadedState: {
      game: { ...initialGameState, turn: { phase: 'home' }, apiKey: 'sk-session' },
      wallet: verifiedWallet(address, { address, token, expiresAt: Date.now() + 3_600_000 }),
      settings: { ...initialSettingsState, cloudSaves },
    },
    backend: backendOf(cloud),
    context: { openStoriesDb: () => openStoriesDb(factory), openTabChannel: () => null },
  });
  // The game's page comes with the backend API (routes.tsx); the list's view reads the cloud's.
  injectBackendApi(baseApi);
  store.dispatch(storiesActions.savedStoriesRequested());
  const query = store.dispatch(cloudApi.endpoints.cloudStories.initiate(address));
  open.push({ store, unsubscribe: query.unsubscribe });
  const cloudList = () => selectCloudStories(address)(store.getState() as never).data;
  return {
    name,
    store,
    cloudList,
    elsewhere: () => elsewhereOf(cloudList() ?? [], store.getState().stories.list.stories),
    readCloudListAgain: () => void query.refetch(),
    db: () => openStoriesDb(factory),
    factory,
  };
}

/** Until the device has read both lists: the browser's, and the wallet's in the cloud. */
export const whenListed = (device: Device) =>
  whenState(
    device.store,
    (state) => state.stories.list.status === 'loaded' && device.cloudList() !== undefined,
    `${device.name} lists its stories and the cloud's`,
  );

/** Until the device lists a story of the wallet's cloud it does not keep; resolves with it. */
export const whenListedElsewhere = (device: Device, test: (story: CloudStory) => boolean) =>
  whenSelected(
    device.store,
    (state) => state.stories.list.status === 'loaded' && device.elsewhere().find(test),
    `${device.name} lists the cloud's story as kept elsewhere`,
  );

/** Until the device's story is saved here at `revision`. */
export const whenSavedHere = (device: Device, revision: number) =>
  whenState(
    device.store,
    (state) => state.stories.current?.revision === revision,
    `${device.name} saved its story at revision ${revision}`,
  );

/**
 * Until the cloud has this device's last save of the story it plays: sent and linked (sending
 * is idle again), and the wallet's list, read again after the send, holds that very save.
 */
export const whenSent = (device: Device) =>
  whenState(
    device.store,
    (state) => {
      const { current, cloud } = state.stories;
      if (!current?.cloudId || cloud.sync.status !== 'idle') return false;
      const there = device.cloudList()?.find((listed) => listed.id === current.cloudId);
      return there !== undefined && Date.parse(there.savedAt) === Date.parse(current.lastSaved);
    },
    `${device.name}'s last save is in the cloud`,
  );

/** Until the device plays the story on screen. */
export const whenPlaying = (device: Device) =>
  whenState(
    device.store,
    (state) => selectGameStage(state) === 'playing',
    `${device.name} plays the story`,
  );

/** The device resumes `played` and saves it (the manual save, then the auto-save after it). */
export async function saveStoryOn(device: Device, played: Story = story) {
  await whenListed(device);
  device.store.dispatch(gameActions.savedStoryResumed(played));
  device.store.dispatch(storiesActions.saveRequested());
  await whenSavedHere(device, 2);
  await whenSent(device);
}

/** A turn played through: a choice rolled, its paragraph written, the next choices offered. */
export function playTurn(device: Device, paragraph: string) {
  const { store } = device;
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

/** Plays a turn and waits until it is saved here and in the cloud. */
export async function playTurnAndSend(device: Device, paragraph: string) {
  const before = device.store.getState().stories.current!.revision;
  playTurn(device, paragraph);
  await whenSavedHere(device, before + 1);
  await whenSent(device);
}

/** The device loads the wallet's cloud story `cloudId`, which it lists as kept elsewhere. */
export async function loadFromCloudOn(device: Device, cloudId: string) {
  await whenListedElsewhere(device, (listed) => listed.id === cloudId);
  device.store.dispatch(storiesActions.cloudLoadRequested(cloudId));
  await whenPlaying(device);
}

/**
 * The story saved on a laptop, played `turns` turns on, and in the cloud: the laptop, and the
 * story's row in the server.
 */
export async function laptopWithStory(cloud: WalletCloud, turns: readonly string[] = []) {
  const laptop = openDevice(cloud, 'the laptop');
  await saveStoryOn(laptop);
  for (const paragraph of turns) await playTurnAndSend(laptop, paragraph);
  const [row] = await cloud.rows();
  return { laptop, row: row! };
}

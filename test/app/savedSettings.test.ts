/**
 * The settings kept between visits, in redux-persist's own format (src/app/savedSettings.ts):
 * what earlier builds saved comes back as one plain event before any flow starts, and each
 * change is written back in the same format.
 */
import { makeStore } from '../../src/app/store';
import { initialSettingsState, languageChosen } from '../../src/features/settings';
import type { WalletEnvironment } from '../../src/features/wallet';
import { MemoryStorage } from '../fixtures/testWallet';

const KEY = 'persist:taleweaver/settings';

/** A record as persistReducer wrote it: each field JSON-encoded inside one JSON object. */
const persisted = (fields: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries({ ...fields, _persist: { version: 1, rehydrated: true } }).map(
        ([name, value]) => [name, JSON.stringify(value)],
      ),
    ),
  );

/**
 * The record once written: the persistoid writes after the dispatch, a field per timer tick, so
 * how long it takes grows with the fields.
 */
async function writtenRecord(storage: MemoryStorage): Promise<string> {
  for (let tick = 0; tick < 200 && storage.getItem(KEY) === null; tick += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return storage.getItem(KEY) ?? 'null';
}

test("an earlier visit's settings come back before any flow starts", async () => {
  const storage = new MemoryStorage();
  storage.setItem(
    KEY,
    persisted({ language: 'kr', provider: 'openai', model: 'gpt-x', baseUrl: '' }),
  );
  // A verified wallet session in this browser: the wallet flow restores it when it starts.
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const token = `e30.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.c2ln`;
  storage.setItem('current_wallet_address', '0xabc');
  storage.setItem('signature_verified_0xabc', 'true');
  storage.setItem('auth_token_0xabc', token);
  const environment: WalletEnvironment = {
    discoverWallets: async () => [],
    storage,
    site: { host: 'localhost', origin: 'http://localhost' },
    reloadHome: () => {},
  };
  const store = makeStore({ persist: true, context: { storage, walletEnvironment: environment } });
  const seen: string[] = [];
  store.subscribe(() =>
    seen.push(`${store.getState().settings.language}/${store.getState().wallet.status}`),
  );

  expect(store.isRestored()).toBe(false);
  expect(store.getState().settings).toEqual(initialSettingsState);
  expect(store.getState().wallet.status).toBe('disconnected'); // no flow before the settings
  await store.ready;
  expect(store.isRestored()).toBe(true);
  expect(store.getState().settings).toEqual({
    ...initialSettingsState,
    language: 'kr',
    provider: 'openai',
    model: 'gpt-x',
    baseUrl: '',
  });
  expect(seen.slice(0, 2)).toEqual(['kr/disconnected', 'kr/verified']);
  store.stop();
});

test('a change is written back in the same format; the stamp too, for an older build', async () => {
  const storage = new MemoryStorage();
  const store = makeStore({ persist: true, context: { storage } });
  await store.ready;
  store.dispatch(languageChosen('kr'));
  expect(JSON.parse(await writtenRecord(storage))).toEqual(
    JSON.parse(persisted({ ...initialSettingsState, language: 'kr' })),
  );
  store.stop();
});

test('nothing saved, a broken record or strange values: the defaults, field by field', async () => {
  const nothing = makeStore({ persist: true, context: { storage: new MemoryStorage() } });
  await nothing.ready;
  expect(nothing.getState().settings).toEqual(initialSettingsState);
  nothing.stop();

  const broken = new MemoryStorage();
  broken.setItem(KEY, '{"language":');
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  const afterBroken = makeStore({ persist: true, context: { storage: broken } });
  await afterBroken.ready;
  expect(afterBroken.getState().settings).toEqual(initialSettingsState);
  expect(warn).toHaveBeenCalledWith(
    'The saved settings could not be read; the defaults are used',
    expect.any(Error),
  );
  warn.mockRestore();
  afterBroken.stop();

  const strange = new MemoryStorage();
  strange.setItem(KEY, persisted({ language: 'fr', provider: 7, model: 'm', extra: true }));
  const afterStrange = makeStore({ persist: true, context: { storage: strange } });
  await afterStrange.ready;
  expect(afterStrange.getState().settings).toEqual({ ...initialSettingsState, model: 'm' });
  afterStrange.stop();
});

test('a store stopped before the settings are back starts nothing', async () => {
  const storage = new MemoryStorage();
  storage.setItem(KEY, persisted({ language: 'kr' }));
  const store = makeStore({ persist: true, context: { storage } });
  store.stop();
  await store.ready;
  expect(store.isRestored()).toBe(false);
  expect(store.getState().settings.language).toBe('en');
});

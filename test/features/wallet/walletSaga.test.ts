/**
 * The wallet session's flows (SPEC.md section 4), each worker run with expectSaga to its end
 * (`run(false)`: no timeout) over the real root reducer, with a test wallet signing with real
 * keys and the real server on PGlite; the saga context comes as static providers, with a
 * virtual clock (the flows' time is the context's, never the wall clock's). The tests at the
 * end check the watchers on a real store, waiting on the store's own updates: their wiring, and
 * that a flow that breaks is told and the next action is still served.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { DEFAULT_PUBLISHABLE_KEY, type BackendProvider } from '../../../src/api/backend';
import { createBackend } from '../../../src/api/supabaseBackend';
import { makeStore, rootReducer, type AppStore, type RootState } from '../../../src/app/store';
import {
  SESSION_CHECK_MS,
  accountChangeFailed,
  checkSession,
  connect,
  connectRequested,
  disconnect,
  disconnectRequested,
  followAccountChange,
  initialWalletState,
  restoreSession,
  selectWalletSession,
  sessionCheckFailed,
  sessionEnded,
  sessionRestoreFailed,
  sessionRestored,
  signInFailed,
  signatureRequested,
  signedIn,
  walletChoiceOffered,
  walletChosen,
  type ActiveWallet,
  type WalletEnvironment,
  type WalletState,
} from '../../../src/features/wallet';
import { readWalletSession, storeSignIn } from '../../../src/features/wallet/session';
import { tokenExpiry } from '../../../src/features/wallet/tokenClaims';
import { MemoryStorage, TestWallet } from '../../fixtures/testWallet';
import { tokenExpiringAt, verifiedSession, verifiedWallet } from '../../fixtures/walletSessions';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../../server/support/databases';
import { startTestServer, type TestServer } from '../../server/support/testServer';
import { contextProviders } from '../../support/sagaReplay';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';

let server: TestServer;
beforeAll(async () => {
  const [pglite] = testBackends();
  // These tests sign in more often in a minute than the player-facing limit allows.
  server = await startTestServer(pglite!, {
    SIGN_IN_RATE_LIMIT: '1000',
    // Optimism's chain id, at a port nothing listens on: a smart account's chain that is down.
    CHAIN_RPC_URLS: `${DOWN_CHAIN}=http://127.0.0.1:9`,
  });
}, DATABASE_START_TIMEOUT_MS);
afterAll(() => server.close(), 60_000);

const DOWN_CHAIN = 10;

/**
 * A smart account's wallet as the page meets it, with no chain behind it: its account has code,
 * and it signs with a contract's signature (here an ERC-6492 wrapper) that no key recovers to.
 */
class ContractAccountWallet extends TestWallet {
  override async request(args: { method: string; params?: unknown[] }): Promise<unknown> {
    if (args.method === 'personal_sign') return `0x${'ab'.repeat(96)}${'6492'.repeat(16)}`;
    if (args.method === 'eth_getCode') return '0x6080';
    return super.request(args);
  }
}

/** A test wallet that also tells when the page starts following it and when it shows a prompt. */
class ObservedWallet extends TestWallet {
  onSignPrompt: () => void = () => {};
  private markFollowed: () => void = () => {};
  readonly followed = new Promise<void>((resolve) => (this.markFollowed = resolve));
  override async request(args: { method: string; params?: unknown[] }): Promise<unknown> {
    if (args.method === 'personal_sign') this.onSignPrompt();
    return super.request(args);
  }
  override on(event: 'accountsChanged', listener: (accounts: string[]) => void): void {
    super.on(event, listener);
    this.markFollowed();
  }
}

/** A test wallet that keeps the sign-in messages it was asked to sign, as text. */
class ReadingWallet extends TestWallet {
  readonly signed: string[] = [];
  override async request(args: { method: string; params?: unknown[] }): Promise<unknown> {
    if (args.method === 'personal_sign') {
      const [hex] = args.params as [string];
      this.signed.push(Buffer.from(hex.slice(2), 'hex').toString('utf8'));
    }
    return super.request(args);
  }
}

type StorageMethod = 'getItem' | 'setItem' | 'removeItem';

/** This browser's storage refusing what the test names, as a browser blocking site data does. */
class RefusingStorage extends MemoryStorage {
  readonly refusing = new Set<StorageMethod>();
  private refuse(method: StorageMethod) {
    if (this.refusing.has(method)) {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    }
  }
  override getItem(key: string) {
    this.refuse('getItem');
    return super.getItem(key);
  }
  override setItem(key: string, value: string) {
    this.refuse('setItem');
    super.setItem(key, value);
  }
  override removeItem(key: string) {
    this.refuse('removeItem');
    super.removeItem(key);
  }
}

function environment(wallets: TestWallet[], storage = new MemoryStorage()) {
  const url = new URL(server.url);
  const reloads: string[] = [];
  const env: WalletEnvironment = {
    discoverWallets: async () =>
      wallets.map((provider, i) => ({
        info: { id: `wallet-${i}`, name: `Test Wallet ${i}`, icon: '' },
        provider,
      })),
    storage,
    site: { host: url.host, origin: url.origin },
    reloadHome: () => reloads.push('/'),
  };
  return { env, storage, reloads };
}

/** The app's state with the given wallet, after `action` was reduced (as the store does). */
function stateWith(wallet: Partial<WalletState> = {}, action?: UnknownAction): RootState {
  const initial = rootReducer(undefined, { type: 'test/init' });
  const state = { ...initial, wallet: { ...initialWalletState, ...wallet } };
  return action ? rootReducer(state, action) : state;
}

/**
 * The saga context: the wallet, the backend and a virtual clock. The clock starts at the wall
 * clock's time, for the server: it checks the sign-in message's times against its own.
 */
const context = (
  env: WalletEnvironment,
  backend?: BackendProvider,
  clock: VirtualClock = virtualClock({ start: Date.now() }),
) =>
  contextProviders({
    walletEnvironment: env,
    backend: backend ?? (async () => server.backend),
    clock,
  });

/** The actions a finished run put, in order. */
const putsOf = (result: { effects: { put?: unknown[] } }) =>
  (result.effects.put ?? []).map(
    (effect) => (effect as { payload: { action: unknown } }).payload.action,
  );

const requested = connectRequested();

/** The session an action carries: the account's, with the server's token and its expiry. */
const sessionOf = (address: string) =>
  expect.objectContaining({
    address: address.toLowerCase(),
    token: expect.any(String),
    expiresAt: expect.any(Number),
  });
/** signedIn / sessionRestored for an account, whatever token the server issued. */
const signedInAs = (address: string) => ({ type: signedIn.type, payload: sessionOf(address) });
const restoredAs = (address: string) => ({
  type: sessionRestored.type,
  payload: sessionOf(address),
});

/** The Connect Wallet flow, from the press (already reduced) to its end. */
const connectRun = (env: WalletEnvironment, active?: ActiveWallet, state?: RootState) =>
  expectSaga(connect, requested, active)
    .withReducer(rootReducer, state ?? stateWith({}, requested))
    .provide(context(env));

/** Signs `wallet`'s current account in, in this browser (storage), and returns the state. */
async function signInHere(env: WalletEnvironment, wallet: TestWallet) {
  const result = await connectRun(env).run(false);
  expect(putsOf(result).at(-1)).toEqual(signedInAs(wallet.address));
  return result.storeState as RootState;
}

/** A new page load: the session stored in this browser is restored. */
const restoreRun = (env: WalletEnvironment, active: ActiveWallet) =>
  expectSaga(restoreSession, active).withReducer(rootReducer, stateWith()).provide(context(env));

/** The accounts the wallet announces when the player switches or locks it. */
function announcements(wallet: TestWallet) {
  const announced: string[][] = [];
  wallet.on('accountsChanged', (accounts) => announced.push(accounts));
  return announced;
}

const followRun = (env: WalletEnvironment, accounts: string[], state: RootState) =>
  expectSaga(followAccountChange, accounts).withReducer(rootReducer, state).provide(context(env));

describe('connecting', () => {
  test('connect, sign and get the server token: verified, stored under the spec keys', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    const active: ActiveWallet = { provider: null };
    const result = await connectRun(env, active).run(false);
    expect(putsOf(result)).toEqual([
      signatureRequested(wallet.address),
      signedInAs(wallet.address),
    ]);
    const token = storage.getItem(`auth_token_${address}`)!;
    expect(result.storeState.wallet).toEqual({
      ...initialWalletState,
      status: 'verified',
      address,
      // The session the rest of the app reads (selectWalletSession): the stored token, and the
      // expiry it states.
      session: { address, token, expiresAt: tokenExpiry(token)! * 1000 },
    });
    expect(result.returnValue).toBe(wallet);
    expect(active.provider).toBe(wallet); // the wallet the session now follows
    expect(storage.getItem('current_wallet_address')).toBe(address);
    expect(storage.getItem(`signature_verified_${address}`)).toBe('true');
    expect(storage.getItem(`signature_${address}`)).toMatch(/^0x[0-9a-f]{130}$/);
    // A token the server itself accepts, for this wallet, for 24 hours.
    const claims = await server.tokens.claimsFor(DEFAULT_PUBLISHABLE_KEY, `Bearer ${token}`);
    expect(claims).toEqual(
      expect.objectContaining({ role: 'authenticated', wallet_address: address }),
    );
    expect(tokenExpiry(token)! - Date.now() / 1000).toBeGreaterThan(86_000);
    expect(wallet.calls.slice(0, 3)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'personal_sign',
    ]);
  });

  test("the sign-in message is issued at the context clock's time", async () => {
    const wallet = new ReadingWallet();
    const { env } = environment([wallet]);
    // Two minutes ago: still inside the message's ten minutes, for the server.
    const issued = Math.floor((Date.now() - 120_000) / 1000) * 1000;
    const result = await expectSaga(connect, requested)
      .withReducer(rootReducer, stateWith({}, requested))
      .provide(context(env, undefined, virtualClock({ start: issued })))
      .run(false);
    expect(putsOf(result).at(-1)).toEqual(signedInAs(wallet.address));
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.signed[0]).toContain(`Issued At: ${new Date(issued).toISOString()}`);
    expect(wallet.signed[0]).toContain(
      `Expiration Time: ${new Date(issued + 600_000).toISOString()}`,
    );
  });

  test('without any wallet: install a wallet', async () => {
    const { env } = environment([]);
    const result = await connectRun(env).run(false);
    expect(putsOf(result)).toEqual([signInFailed('noWallet')]);
    expect(result.storeState.wallet).toMatchObject({ status: 'disconnected', error: 'noWallet' });
    expect(result.returnValue).toBeNull();
  });

  test('with two wallets the player picks one, and that one signs', async () => {
    const first = new TestWallet();
    const second = new TestWallet();
    const { env } = environment([first, second]);
    // Handed to the flow once it waits for the player's pick.
    const result = await connectRun(env).dispatch(walletChosen('wallet-1')).run(false);
    expect(putsOf(result)).toEqual([
      walletChoiceOffered([
        { id: 'wallet-0', name: 'Test Wallet 0', icon: '' },
        { id: 'wallet-1', name: 'Test Wallet 1', icon: '' },
      ]),
      signatureRequested(second.address),
      signedInAs(second.address),
    ]);
    expect(result.storeState.wallet.address).toBe(second.address.toLowerCase());
    expect(first.calls).toEqual([]);
  });

  test('a refused request clears the auth state and says the player declined', async () => {
    const wallet = new TestWallet();
    wallet.mode = 'reject';
    const { env, storage } = environment([wallet]);
    const result = await connectRun(env).run(false);
    expect(putsOf(result)).toEqual([signInFailed('rejected')]);
    expect(result.storeState.wallet).toMatchObject({ status: 'disconnected', error: 'rejected' });
    expect(storage.length).toBe(0);
  });

  test('a signature from the wrong key is refused before it reaches the server', async () => {
    const wallet = new TestWallet();
    wallet.mode = 'wrongKey';
    const { env, storage } = environment([wallet]);
    const result = await connectRun(env).run(false);
    expect(putsOf(result)).toEqual([
      signatureRequested(wallet.address),
      signInFailed('verificationFailed'),
    ]);
    expect(result.storeState.wallet.status).toBe('disconnected');
    expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
  });

  test.each([
    [8453, 'smartAccountUnchecked'],
    [DOWN_CHAIN, 'chainUnavailable'],
  ] as const)(
    "a smart account's signature goes to the server; on chain %i it is refused as %s",
    async (chainId, code) => {
      const wallet = new ContractAccountWallet(1, chainId);
      const { env, storage } = environment([wallet]);
      const result = await connectRun(env).run(false);
      expect(putsOf(result)).toEqual([
        signatureRequested(wallet.address),
        signInFailed(code, chainId),
      ]);
      expect(result.storeState.wallet).toMatchObject({
        status: 'disconnected',
        error: code,
        errorChainId: chainId,
      });
      expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
    },
  );

  test('when the nonce cannot be had, a stand-in nonce is signed and the server refuses it', async () => {
    const wallet = new TestWallet();
    const { env } = environment([wallet]);
    // A client with the wrong public key: the nonce request is refused; the login is not.
    const backend = createBackend({ url: server.url, publishableKey: 'wrong-key' });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await expectSaga(connect, requested)
      .withReducer(rootReducer, stateWith({}, requested))
      .provide(context(env, async () => backend))
      .run(false);
    expect(putsOf(result)).toEqual([
      signatureRequested(wallet.address),
      signInFailed('authFailed'),
    ]);
    // The server's refusal is a developer's problem too: it is logged once, with its cause and
    // the flow it broke.
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith(
      'connect (wallet/connectRequested) failed:',
      expect.any(Error),
    );
    logged.mockRestore();
    expect(wallet.calls).toContain('personal_sign');
    expect(result.storeState.wallet).toMatchObject({ status: 'disconnected', error: 'authFailed' });
  });

  test('with the backend’s sign-in limit spent, the player is asked to wait, not to sign', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    // This minute's and the next one's count for this machine's address, spent.
    await server.db.pool.query(
      `insert into public.sign_in_attempts (client_address, minute, attempts)
       select '127.0.0.1', date_trunc('minute', now()) + m * interval '1 minute', 1000
       from generate_series(0, 1) as m
       on conflict (client_address, minute) do update set attempts = excluded.attempts`,
    );
    try {
      const result = await connectRun(env).run(false);
      expect(putsOf(result)).toEqual([
        signatureRequested(wallet.address),
        signInFailed('rateLimited'),
      ]);
      expect(wallet.calls).not.toContain('personal_sign');
      expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
      expect(result.storeState.wallet).toMatchObject({
        status: 'disconnected',
        error: 'rateLimited',
      });
    } finally {
      await server.db.pool.query('delete from public.sign_in_attempts');
    }
  });

  test('a login refused by the sign-in limit asks the player to wait too', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    // One attempt left this minute: the nonce request takes it, and the login is refused (had
    // the minute turned in between, the nonce request would be the one refused: same ending).
    await server.db.pool.query(
      `insert into public.sign_in_attempts (client_address, minute, attempts)
       select '127.0.0.1', date_trunc('minute', now()) + m * interval '1 minute', 999 + m
       from generate_series(0, 1) as m
       on conflict (client_address, minute) do update set attempts = excluded.attempts`,
    );
    try {
      const result = await connectRun(env).run(false);
      expect(putsOf(result).at(-1)).toEqual(signInFailed('rateLimited'));
      expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
    } finally {
      await server.db.pool.query('delete from public.sign_in_attempts');
    }
  });

  test('a second Connect while signing says a signature is already in progress', async () => {
    const wallet = new ObservedWallet();
    const { env } = environment([wallet]);
    const errors: unknown[] = [];
    const recorded = (state: RootState | undefined, action: UnknownAction) => {
      const next = rootReducer(state, action);
      errors.push(next.wallet.error);
      return next;
    };
    const run = expectSaga(connect, requested)
      .withReducer(recorded, stateWith({}, requested))
      .provide(context(env));
    wallet.onSignPrompt = () => run.dispatch(connectRequested());
    const result = await run.run(false);
    expect(errors).toContain('inProgress');
    expect(putsOf(result)).toEqual([
      signatureRequested(wallet.address),
      signedInAs(wallet.address),
    ]);
    expect(result.storeState.wallet).toMatchObject({ status: 'verified', error: null }); // cleared
  });
});

describe('the session', () => {
  test('a session verified earlier in this browser is restored at start', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    await signInHere(env, wallet);
    const active: ActiveWallet = { provider: null };
    const result = await restoreRun(environment([wallet], storage).env, active).run(false);
    expect(putsOf(result)).toEqual([restoredAs(wallet.address.toLowerCase())]);
    expect(result.storeState.wallet.status).toBe('verified');
    expect(result.returnValue).toBe(wallet); // the wallet holding the account is followed
    expect(active.provider).toBe(wallet);
  });

  test('switching to an account verified here adopts it; to a new one asks for a signature', async () => {
    const wallet = new TestWallet(3);
    const { env, storage } = environment([wallet]);
    const [first, second, third] = wallet.accounts.map((account) => account.address);
    // Accounts 2 and then 1 sign in, in this browser.
    wallet.switchTo(1);
    await signInHere(env, wallet);
    wallet.switchTo(0);
    await signInHere(env, wallet);

    // A new page load restores account 1 and follows the wallet, which switches twice.
    const page = environment([wallet], storage).env;
    const active: ActiveWallet = { provider: null };
    const restored = await restoreRun(page, active).run(false);
    expect(putsOf(restored)).toEqual([restoredAs(first!.toLowerCase())]);
    const announced = announcements(wallet);
    wallet.switchTo(1);
    const adopted = await followRun(page, announced[0]!, restored.storeState).run(false);
    expect(putsOf(adopted)).toEqual([restoredAs(second!.toLowerCase())]);
    wallet.switchTo(2);
    const changed = await followRun(page, announced[1]!, adopted.storeState).run(false);
    expect(putsOf(changed)).toEqual([sessionEnded(), connectRequested()]);
    expect(changed.storeState.wallet.status).toBe('connecting');
    // The sign-in it asked for goes to the wallet followed.
    const signed = await connectRun(page, active, changed.storeState).run(false);
    expect(putsOf(signed)).toEqual([signatureRequested(third!), signedInAs(third!)]);
    expect(signed.storeState.wallet.address).toBe(third!.toLowerCase());
  });

  test('no accounts any more clears the session', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    await signInHere(env, wallet);
    const page = environment([wallet], storage).env;
    const restored = await restoreRun(page, { provider: null }).run(false);
    const announced = announcements(wallet);
    wallet.lock();
    const result = await followRun(page, announced[0]!, restored.storeState).run(false);
    expect(putsOf(result)).toEqual([sessionEnded()]);
    expect(result.storeState.wallet.status).toBe('disconnected');
    expect(storage.getItem('current_wallet_address')).toBeNull();
    expect(storage.getItem(`auth_token_${wallet.address.toLowerCase()}`)).toBeNull();
  });

  test('disconnect clears every stored credential and reloads home', async () => {
    const wallet = new TestWallet();
    const { env, storage, reloads } = environment([wallet]);
    const verified = await signInHere(env, wallet);
    storage.setItem('apiKey', 'kept');
    const result = await expectSaga(disconnect, disconnectRequested())
      .withReducer(rootReducer, rootReducer(verified, disconnectRequested()))
      .provide(context(env))
      .run(false);
    expect(putsOf(result)).toEqual([]);
    expect(reloads).toEqual(['/']);
    expect([...Array(storage.length).keys()].map((i) => storage.key(i))).toEqual(['apiKey']);
  });
});

describe('the once-a-second check', () => {
  const check = (
    env: WalletEnvironment,
    wallet: Partial<WalletState>,
    provider: TestWallet | null,
    clock?: VirtualClock,
  ) =>
    expectSaga(checkSession, { provider })
      .withReducer(rootReducer, stateWith(wallet))
      .provide(context(env, undefined, clock));
  const tokenExpiring = (exp: number) =>
    `x.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.y`;

  test('an expired token ends the session and asks for a new signature', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    storeSignIn(storage, { address, signature: '0x', token: tokenExpiring(1) });
    const result = await check(env, verifiedWallet(address), wallet).run(false);
    expect(putsOf(result)).toEqual([sessionEnded(), connectRequested()]);
    expect(result.storeState.wallet.status).toBe('connecting');
    expect(storage.getItem(`signature_verified_${address}`)).toBeNull();
  });

  test('a session signed in by another tab is taken up', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    storeSignIn(storage, {
      address,
      signature: '0x',
      token: tokenExpiring(Date.now() / 1000 + 3600),
    });
    const result = await check(env, {}, null).run(false);
    expect(putsOf(result)).toEqual([restoredAs(address)]);
    expect(result.storeState.wallet).toMatchObject({ status: 'verified', address });
  });

  test("a session runs until its token expires by the context's clock, then the check logs out", async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    // A token that ran out long ago by the wall clock: only the flow's own clock says it holds.
    const expiresAt = Date.UTC(2001, 0, 1);
    const session = verifiedSession(address, expiresAt);
    storeSignIn(storage, { address, signature: '0x', token: session.token });
    const clock = virtualClock({ start: expiresAt - 1000 });
    const before = await check(env, verifiedWallet(address, session), null, clock).run(false);
    expect(putsOf(before)).toEqual([]);
    expect(selectWalletSession(before.storeState)).toEqual(session);

    await clock.advance(1000);
    const after = await check(env, verifiedWallet(address, session), null, clock).run(false);
    expect(putsOf(after)).toEqual([sessionEnded()]);
    expect(selectWalletSession(after.storeState)).toBeNull();
    expect(after.storeState.wallet).toMatchObject({ status: 'disconnected', session: null });
    expect(storage.getItem(`auth_token_${address}`)).toBeNull();
  });

  test('a fresh token another tab got for the same account replaces the one held', async () => {
    const wallet = new TestWallet();
    const { env, storage } = environment([wallet]);
    const address = wallet.address.toLowerCase();
    const held = verifiedSession(address);
    const fresh = verifiedSession(address, held.expiresAt + 3_600_000);
    storeSignIn(storage, { address, signature: '0x', token: fresh.token });
    const result = await check(env, verifiedWallet(address, held), null).run(false);
    expect(putsOf(result)).toEqual([sessionRestored(fresh)]);
    expect(selectWalletSession(result.storeState)).toEqual(fresh);
  });

  test('a malformed token is no session, and the check ends it without failing', async () => {
    const address = new TestWallet().address.toLowerCase();
    const malformed = [
      'not-a-jwt',
      'only.two',
      'x.%%%.y',
      `x.${Buffer.from('not json').toString('base64url')}.y`,
      `x.${Buffer.from('123').toString('base64url')}.y`,
      `x.${Buffer.from('{"exp":"tomorrow"}').toString('base64url')}.y`,
      `x.${Buffer.from('{"sub":"no expiry"}').toString('base64url')}.y`,
    ];
    for (const token of malformed) {
      const { env, storage } = environment([]);
      storeSignIn(storage, { address, signature: '0x', token });
      expect(tokenExpiry(token)).toBeNull();
      expect(readWalletSession(storage, Date.now())).toBeNull();
      const held = verifiedWallet(address);
      const result = await check(env, held, null).run(false);
      expect(putsOf(result)).toEqual([sessionEnded()]);
      expect(result.storeState.wallet.error).toBeNull(); // no 'checkFailed'
    }
    // The same shape with a stated expiry is a session: the test's tokens are not refused as such.
    expect(tokenExpiry(tokenExpiringAt(Date.now() + 60_000))).toEqual(expect.any(Number));
  });

  test('a wallet now showing another account than the stored one resets to that account', async () => {
    const wallet = new TestWallet(2);
    const { env, storage } = environment([wallet]);
    await wallet.request({ method: 'eth_requestAccounts' });
    const stored = wallet.accounts[1]!.address.toLowerCase();
    const session = verifiedSession(stored);
    storeSignIn(storage, { address: stored, signature: '0x', token: session.token });
    const result = await check(env, verifiedWallet(stored, session), wallet).run(false);
    expect(putsOf(result)).toEqual([sessionEnded(), connectRequested()]);
    expect(storage.getItem('current_wallet_address')).toBeNull();
  });
});

describe('a flow that breaks is told (the failure policy)', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  test('a session that cannot be read at start: the player is told, and may connect again', async () => {
    const storage = new RefusingStorage();
    storage.refusing.add('getItem');
    const { env } = environment([new TestWallet()], storage);
    const result = await restoreRun(env, { provider: null }).run(false);
    expect(putsOf(result)).toEqual([sessionRestoreFailed()]);
    expect(result.storeState.wallet).toMatchObject({
      status: 'disconnected',
      error: 'restoreFailed',
    });
    expect(result.returnValue).toBeUndefined(); // no wallet to follow
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith('restoreSession failed:', expect.any(DOMException));
  });

  test('a check that breaks is told; the session stays as it was', async () => {
    const address = new TestWallet().address.toLowerCase();
    const storage = new RefusingStorage();
    const session = verifiedSession(address);
    storeSignIn(storage, { address, signature: '0x', token: session.token });
    storage.refusing.add('getItem');
    const { env } = environment([], storage);
    const result = await expectSaga(checkSession, { provider: null })
      .withReducer(rootReducer, stateWith(verifiedWallet(address, session)))
      .provide(context(env))
      .run(false);
    expect(putsOf(result)).toEqual([sessionCheckFailed()]);
    expect(result.storeState.wallet).toMatchObject({
      status: 'verified',
      session,
      error: 'checkFailed',
    });
    expect(logged).toHaveBeenCalledTimes(1);
  });

  test('an account change that cannot be followed is told', async () => {
    const address = new TestWallet().address.toLowerCase();
    const storage = new RefusingStorage();
    storage.refusing.add('removeItem');
    const { env } = environment([], storage);
    const result = await followRun(env, [], stateWith(verifiedWallet(address))).run(false);
    expect(putsOf(result)).toEqual([accountChangeFailed()]);
    expect(result.storeState.wallet.error).toBe('accountChangeFailed');
    expect(logged).toHaveBeenCalledWith('followAccountChange failed:', expect.any(DOMException));
  });
});

describe('the watchers, on a real store', () => {
  const stateReached = (store: AppStore, reached: (state: RootState) => boolean) =>
    new Promise<void>((resolve) => {
      if (reached(store.getState())) return resolve();
      const unsubscribe = store.subscribe(() => {
        if (!reached(store.getState())) return;
        unsubscribe();
        resolve();
      });
    });
  const stores: AppStore[] = [];
  const storeFor = (env: WalletEnvironment, clock?: VirtualClock) => {
    const store = makeStore({
      backend: async () => server.backend,
      context: { walletEnvironment: env, clock },
    });
    stores.push(store);
    return store;
  };
  // Ends the wallet's once-a-second check, even when a test failed.
  afterEach(() => stores.splice(0).forEach((store) => store.stop()));

  test('a second Connect while signing starts no second sign-in (takeLeading)', async () => {
    const wallet = new ObservedWallet();
    const store = storeFor(environment([wallet]).env);
    let errorWhileSigning: unknown;
    wallet.onSignPrompt = () => {
      store.dispatch(connectRequested());
      errorWhileSigning = store.getState().wallet.error;
    };
    store.dispatch(connectRequested());
    await stateReached(store, (state) => state.wallet.status === 'verified');
    expect(errorWhileSigning).toBe('inProgress');
    expect(wallet.calls.filter((call) => call === 'eth_requestAccounts')).toHaveLength(1);
    expect(store.getState().wallet.error).toBeNull(); // cleared by the successful sign-in
  });

  test('the wallet restored at start is followed: its account switches reach the session', async () => {
    const wallet = new ObservedWallet(3);
    const { env, storage } = environment([wallet]);
    const [first, second, third] = wallet.accounts.map((account) => account.address.toLowerCase());
    wallet.switchTo(1);
    await signInHere(env, wallet);
    wallet.switchTo(0);
    await signInHere(env, wallet);

    const store = storeFor(environment([wallet], storage).env);
    await stateReached(store, (state) => state.wallet.address === first);
    await wallet.followed;
    wallet.switchTo(1);
    await stateReached(store, (state) => state.wallet.address === second);
    wallet.switchTo(2);
    await stateReached(
      store,
      (state) => state.wallet.status === 'verified' && state.wallet.address === third,
    );
    expect(wallet.calls.filter((call) => call === 'personal_sign')).toHaveLength(3);
  });

  describe('a worker that throws is told, and its watcher serves the next action', () => {
    let logged: jest.SpyInstance;
    beforeEach(() => {
      logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    });
    afterEach(() => logged.mockRestore());
    /**
     * The flows' clock, at the wall clock's time (the server checks a sign-in message's times),
     * on which the once-a-second check never runs by itself here.
     */
    const heldCheck = () =>
      virtualClock({ start: Date.now(), held: (ms) => ms === SESSION_CHECK_MS });

    test('a Disconnect that breaks says so, and the next Disconnect goes through', async () => {
      const storage = new RefusingStorage();
      const { env, reloads } = environment([], storage);
      const reloaded = new Promise<void>((resolve) => {
        env.reloadHome = () => {
          reloads.push('/');
          resolve();
        };
      });
      storeSignIn(storage, { address: '0xabc', signature: '0x', token: 'x.y.z' });
      const store = storeFor(env, heldCheck());

      storage.refusing.add('removeItem'); // this browser's storage, blocked for a moment
      store.dispatch(disconnectRequested());
      await stateReached(store, (state) => state.wallet.error === 'disconnectFailed');
      expect(reloads).toEqual([]);
      expect(logged).toHaveBeenCalledTimes(1);
      expect(logged).toHaveBeenCalledWith(
        'disconnect (wallet/disconnectRequested) failed:',
        expect.any(DOMException),
      );

      storage.refusing.clear();
      store.dispatch(disconnectRequested());
      await reloaded;
      expect(reloads).toEqual(['/']);
      expect(storage.length).toBe(0);
      expect(store.getState().wallet.error).toBe('disconnectFailed'); // until dismissed
    });

    test("a sign-in broken by the wallet's own bug says so, and the next Connect signs in", async () => {
      const wallet = new TestWallet();
      let broken = true;
      const request = wallet.request.bind(wallet);
      wallet.request = async (args) => {
        if (broken && args.method === 'eth_requestAccounts') {
          broken = false;
          throw new TypeError("Cannot read properties of undefined (reading 'accounts')");
        }
        return request(args);
      };
      const store = storeFor(environment([wallet]).env, heldCheck());

      store.dispatch(connectRequested());
      await stateReached(store, (state) => state.wallet.error === 'authFailed');
      expect(store.getState().wallet.status).toBe('disconnected');
      expect(logged).toHaveBeenCalledTimes(1);
      expect(logged).toHaveBeenCalledWith(
        'connect (wallet/connectRequested) failed:',
        expect.any(TypeError),
      );

      store.dispatch(connectRequested());
      await stateReached(store, (state) => state.wallet.status === 'verified');
      expect(store.getState().wallet).toMatchObject({
        address: wallet.address.toLowerCase(),
        error: null,
      });
    });
  });
});

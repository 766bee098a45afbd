import { makeStore } from '../../../src/app/store';
import {
  accountChangeFailed,
  connectCancelled,
  connectRequested,
  disconnectFailed,
  errorDismissed,
  sessionCheckFailed,
  sessionRestoreFailed,
  sessionEnded,
  sessionRestored,
  signInFailed,
  signatureRequested,
  signedIn,
  selectWalletAccount,
  selectWalletAddress,
  selectWalletSession,
  walletChoiceOffered,
  walletChosen,
} from '../../../src/features/wallet/walletSlice';
import { verifiedSession } from '../../fixtures/walletSessions';

const ADDRESS = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

describe('the wallet state machine', () => {
  test('connect → sign → verified, with the address lowercased', () => {
    const store = makeStore();
    store.dispatch(connectRequested());
    expect(store.getState().wallet.status).toBe('connecting');
    store.dispatch(signatureRequested(ADDRESS));
    expect(store.getState().wallet).toEqual(
      expect.objectContaining({ status: 'signing', address: ADDRESS.toLowerCase() }),
    );
    store.dispatch(signedIn(verifiedSession(ADDRESS)));
    expect(store.getState().wallet.status).toBe('verified');
  });

  test('a second Connect while busy says a signature is already in progress', () => {
    const store = makeStore();
    store.dispatch(connectRequested());
    store.dispatch(connectRequested());
    expect(store.getState().wallet).toEqual(
      expect.objectContaining({ status: 'connecting', error: 'inProgress' }),
    );
  });

  test('choosing a wallet, and cancelling the choice', () => {
    const store = makeStore();
    store.dispatch(connectRequested());
    store.dispatch(walletChoiceOffered([{ id: 'a', name: 'A', icon: '' }]));
    expect(store.getState().wallet.status).toBe('choosing');
    store.dispatch(walletChosen('a'));
    expect(store.getState().wallet).toEqual(
      expect.objectContaining({ status: 'connecting', choices: [] }),
    );
    store.dispatch(walletChoiceOffered([{ id: 'a', name: 'A', icon: '' }]));
    store.dispatch(connectCancelled());
    expect(store.getState().wallet.status).toBe('disconnected');
  });

  test('a failed sign-in returns to disconnected with the reason', () => {
    const store = makeStore();
    store.dispatch(connectRequested());
    store.dispatch(signatureRequested(ADDRESS));
    store.dispatch(signInFailed('rejected'));
    expect(store.getState().wallet).toEqual(
      expect.objectContaining({ status: 'disconnected', address: null, error: 'rejected' }),
    );
  });

  test('events that make no sense in the current state are ignored', () => {
    const store = makeStore();
    store.dispatch(signatureRequested(ADDRESS)); // not connecting
    store.dispatch(walletChosen('a')); // not choosing
    expect(store.getState().wallet.status).toBe('disconnected');
    store.dispatch(connectRequested());
    store.dispatch(sessionRestored(verifiedSession(ADDRESS))); // busy signing in: not taken over
    store.dispatch(sessionEnded());
    expect(store.getState().wallet.status).toBe('connecting');
  });

  test('selectWalletSession: the session only while verified, gone when it ends', () => {
    const store = makeStore();
    const session = verifiedSession(ADDRESS);
    expect(selectWalletSession(store.getState())).toBeNull();
    store.dispatch(connectRequested());
    store.dispatch(signatureRequested(ADDRESS));
    // Signing: the account is known, its token is not there yet.
    expect(selectWalletAccount(store.getState())).toBe(ADDRESS.toLowerCase());
    expect(selectWalletSession(store.getState())).toBeNull();
    store.dispatch(signedIn(session));
    expect(selectWalletSession(store.getState())).toEqual({
      address: ADDRESS.toLowerCase(),
      token: session.token,
      expiresAt: session.expiresAt,
    });
    expect(selectWalletAddress(store.getState())).toBe(ADDRESS.toLowerCase());
    // The same object while nothing changed: a view reading it does not render again.
    expect(selectWalletSession(store.getState())).toBe(selectWalletSession(store.getState()));
    store.dispatch(sessionEnded());
    expect(selectWalletSession(store.getState())).toBeNull();
    expect(store.getState().wallet.session).toBeNull();
  });

  test('a failed sign-in after a session ended leaves no token behind', () => {
    const store = makeStore();
    store.dispatch(sessionRestored(verifiedSession(ADDRESS)));
    store.dispatch(sessionEnded());
    store.dispatch(connectRequested());
    store.dispatch(signatureRequested(ADDRESS));
    store.dispatch(signInFailed('rejected'));
    expect(store.getState().wallet).toMatchObject({ status: 'disconnected', session: null });
  });

  test("the other flows' failures are told, and leave the session as it was", () => {
    const store = makeStore();
    const session = verifiedSession(ADDRESS);
    store.dispatch(sessionRestored(session));
    const told = [
      [sessionCheckFailed(), 'checkFailed'],
      [accountChangeFailed(), 'accountChangeFailed'],
      [disconnectFailed(), 'disconnectFailed'],
      [sessionRestoreFailed(), 'restoreFailed'],
    ] as const;
    for (const [failed, error] of told) {
      store.dispatch(failed);
      expect(store.getState().wallet).toMatchObject({ status: 'verified', error });
      expect(selectWalletSession(store.getState())).toEqual(session);
      store.dispatch(errorDismissed());
    }
    store.dispatch(sessionEnded());
    store.dispatch(sessionRestoreFailed());
    expect(store.getState().wallet).toMatchObject({
      status: 'disconnected',
      error: 'restoreFailed',
    });
  });
});

/**
 * The wallet session as the rest of the app reads it (SPEC.md section 4, Wallet session): the
 * store's thunk `extra` and saga context give the wallet slice's session at the moment asked.
 */
import { expectSaga } from 'redux-saga-test-plan';
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { makeStore, rootReducer, type RootState, type ThunkExtra } from '../../../src/app/store';
import {
  currentWalletSession,
  sessionEnded,
  signedIn,
  walletSessionAccessor,
  walletSessionOf,
} from '../../../src/features/wallet';
import { contextProviders } from '../../support/sagaReplay';
import { verifiedSession } from '../../fixtures/walletSessions';

const ADDRESS = '0xabcdef0123456789abcdef0123456789abcdef01';

/** What an RTK Query endpoint sees: the session its store's `extra` gives when it sends. */
const sessionAsSent: ThunkAction<unknown, RootState, ThunkExtra, UnknownAction> = (
  _dispatch,
  _getState,
  extra,
) => walletSessionOf(extra);

test("the store's extra gives the session of the moment: none, verified, then ended", () => {
  const store = makeStore();
  const session = verifiedSession(ADDRESS);
  expect(store.dispatch(sessionAsSent)).toBeNull();
  store.dispatch(signedIn(session));
  expect(store.dispatch(sessionAsSent)).toEqual(session);
  store.dispatch(sessionEnded());
  expect(store.dispatch(sessionAsSent)).toBeNull();
});

test('a saga reads the session through its context', async () => {
  const session = verifiedSession(ADDRESS);
  const state = rootReducer(undefined, signedIn(session));
  const result = await expectSaga(currentWalletSession)
    .provide(contextProviders({ walletSession: walletSessionAccessor(() => state) }))
    .run(false);
  expect(result.returnValue).toEqual(session);
});

test('a saga whose context has no accessor gets no session', async () => {
  const result = await expectSaga(currentWalletSession).provide(contextProviders({})).run(false);
  expect(result.returnValue).toBeNull();
});

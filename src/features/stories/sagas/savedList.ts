/**
 * The list of saved stories (SPEC.md section 4): the current wallet's, and it follows a wallet
 * change at once.
 */
import { call, put, select } from 'typed-redux-saga';
import { policed } from '../../../shared/failurePolicy';
import { walletSlice } from '../../wallet';
import { sameWallet } from '../savedStory';
import { toStorageError } from '../browserDb';
import { listStories } from '../browserPlace';
import { storiesActions } from '../storiesSlice';
import { selectOwner, selectState, storiesDb } from './storiesState';

export const WALLET_CHANGES = [
  walletSlice.actions.signedIn,
  walletSlice.actions.sessionRestored,
  walletSlice.actions.sessionEnded,
].map((event) => event.type);

/** The list worker (storiesActions.savedStoriesRequested): the current wallet's stories. */
export const listSaved = policed(
  function* listSaved() {
    const owner = yield* select(selectOwner);
    const db = yield* storiesDb();
    const stories = yield* call(listStories, db, owner);
    yield* put(storiesActions.savedStoriesListed({ owner, stories }));
  },
  (error) => {
    console.error('Listing the saved stories failed', error);
    return storiesActions.savedStoriesFailed(toStorageError(error).reason);
  },
);

/**
 * After a wallet change: a list on screen of another wallet is asked for again (SPEC.md
 * section 4: it polls; reacting to the event is at once).
 */
export function* followWallet() {
  const state = yield* select(selectState);
  const { status, owner } = state.stories.list;
  if (status === 'idle' || sameWallet(owner, selectOwner(state))) return;
  yield* put(storiesActions.savedStoriesRequested());
}

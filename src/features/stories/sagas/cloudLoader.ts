/**
 * The cloud's flows (cloud/cloudSaga.ts) load on demand: once the player keeps stories with a
 * signed-in wallet, or asks for something only the cloud does (Publish, Unpublish, and Load or
 * Delete on a story kept there). A player who does neither never downloads them.
 */
import { call, select, take } from 'typed-redux-saga';
import { cloudSavesChosen, selectCloudSaves } from '../../settings';
import { selectWalletSession, walletSlice } from '../../wallet';
import { storiesActions } from '../storiesSlice';
import { selectState } from './storiesState';

/** Actions only the cloud's flows serve: the first one is handed to them when they start. */
const CLOUD_REQUESTS = [
  storiesActions.publishRequested,
  storiesActions.unpublishRequested,
  storiesActions.cloudLoadRequested,
  storiesActions.cloudDeleteConfirmed,
];

const CLOUD_WANTED = [
  cloudSavesChosen.type,
  walletSlice.actions.signedIn.type,
  walletSlice.actions.sessionRestored.type,
  ...CLOUD_REQUESTS.map((request) => request.type),
];

export function* loadCloudWhenWanted() {
  let first: { type: string; payload?: unknown } | null = null;
  for (;;) {
    const state = yield* select(selectState);
    if (selectCloudSaves(state) && selectWalletSession(state)) break;
    const action = yield* take<{ type: string; payload?: unknown }>(CLOUD_WANTED);
    if (CLOUD_REQUESTS.some((request) => request.match(action))) {
      first = action;
      break;
    }
  }
  const { cloudSaga } = yield* call(
    () => import(/* webpackChunkName: "cloud" */ '../cloud/cloudSaga'),
  );
  yield* call(cloudSaga, first);
}

/**
 * The cloud's flows (cloudFlows.ts) load on demand: once the player keeps stories with a
 * signed-in wallet, or something only the cloud serves happens (the wallet's cloud list
 * arriving, Publish, Unpublish, and Load or Delete on a story kept there: cloudFlowStarters.ts).
 * A player who does none of these never downloads them.
 */
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import { call, select, take } from 'typed-redux-saga';
import { cloudSavesChosen, selectCloudSaves } from '../../settings';
import { selectWalletSession, walletSlice } from '../../wallet';
import { selectState, type State } from '../sagas/storiesState';
import { isCloudListArrival } from './cloudModel';
import { CLOUD_REQUESTS } from './cloudFlowStarters';

/** Whether `action` is one only the cloud's flows serve: it is handed to them when they start. */
const isCloudRequest = (action: Action) =>
  CLOUD_REQUESTS.some((request) =>
    typeof request === 'string' ? request === action.type : request(action),
  );

/**
 * Whether a cloud request needs the flows now. A wallet's cloud list arriving needs them only
 * when there is something to set beside the browser's: stories in the cloud, or stories here
 * that went up (one deleted elsewhere goes here too). A wallet that keeps nothing in the cloud
 * never downloads them.
 */
function needsFlows(action: Action, state: State) {
  if (!isCloudListArrival(action)) return true;
  const listed = (action as Action & { payload?: unknown[] }).payload ?? [];
  return (
    listed.length > 0 ||
    state.stories.list.stories.some((story) => (story.cloud?.revision ?? 0) > 0)
  );
}

const SENDING_MAY_START = new Set<string>([
  cloudSavesChosen.type,
  walletSlice.actions.signedIn.type,
  walletSlice.actions.sessionRestored.type,
]);

export function* loadCloudWhenWanted() {
  let first: UnknownAction | null = null;
  for (;;) {
    const state = yield* select(selectState);
    if (selectCloudSaves(state) && selectWalletSession(state)) break;
    const action: UnknownAction = yield* take(
      (candidate: Action) => SENDING_MAY_START.has(candidate.type) || isCloudRequest(candidate),
    );
    if (isCloudRequest(action) && needsFlows(action, yield* select(selectState))) {
      first = action;
      break;
    }
  }
  const { cloudSaga } = yield* call(() => import(/* webpackChunkName: "cloud" */ './cloudFlows'));
  yield* call(cloudSaga, first);
}

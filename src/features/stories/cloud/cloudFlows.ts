/**
 * Cloud saves and publishing (DESIGN.md, "Cloud saves and published stories"): the cloud's
 * flows, one worker each under the one failure policy (src/shared/failurePolicy.ts), and the
 * watchers that run them. Loaded on demand (cloudLoader.ts). Sending the browser's saves runs
 * all along (sagas/sending.ts); the others are started by the events in cloudFlowStarters.ts:
 * the lists set side by side (sagas/listing.ts), Load and Delete of a story kept with the wallet
 * (listing.ts, deleting.ts), and Publish and Unpublish (publishing.ts). Each worker takes the
 * action that starts it and returns when its flow ends, so a test runs one with expectSaga and
 * no timeout.
 */
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import { fork, takeEvery, takeLatest, takeLeading } from 'typed-redux-saga';
import { policed } from '../../../shared/failurePolicy';
import { CLOUD_FLOW_STARTERS, type CloudFlowName } from './cloudFlowStarters';
import { newCloudPlace, type CloudPlace } from './cloudPlace';
import { deleteEverywhere, deleteFailed, deleteInCloud } from './sagas/deleting';
import {
  loadFromCloud,
  loadFromCloudFailed,
  readCloudAgain,
  reconcile,
  reconcileFailed,
} from './sagas/listing';
import { publish, publishFailed, unpublish } from './sagas/publishing';
import { sendInTurn } from './sagas/sending';

type Worker = (action: never, place: CloudPlace) => Generator;
/**
 * takeEvery, takeLatest or takeLeading, as this table uses them: redux-saga hands the worker the
 * extra argument first and the action last.
 */
type Take = (
  pattern: (action: Action) => boolean,
  worker: (place: CloudPlace, action: UnknownAction) => Generator,
  place: CloudPlace,
) => ReturnType<typeof takeEvery>;

/** Each flow's worker under the failure policy, and how its watcher takes its starters. */
const CLOUD_FLOWS: Record<CloudFlowName, { worker: Worker; take: Take }> = {
  // The newest list is the one set beside the browser's.
  reconcile: { worker: policed(reconcile, reconcileFailed), take: takeLatest as Take },
  // Refresh reads the wallet's cloud list again too: another device may have played on.
  readCloudAgain: { worker: readCloudAgain, take: takeLatest as Take },
  // A double click is one load, one publish.
  loadFromCloud: {
    worker: policed(loadFromCloud, loadFromCloudFailed),
    take: takeLeading as Take,
  },
  deleteInCloud: { worker: policed(deleteInCloud, deleteFailed), take: takeEvery as Take },
  deleteEverywhere: { worker: policed(deleteEverywhere, deleteFailed), take: takeEvery as Take },
  publish: { worker: policed(publish, publishFailed), take: takeLeading as Take },
  unpublish: { worker: policed(unpublish, publishFailed), take: takeLeading as Take },
};

/** Whether `action` starts `flow`: its type is one of the flow's, or passes the flow's test. */
const starts = (flow: CloudFlowName) => (action: Action) =>
  CLOUD_FLOW_STARTERS[flow].some((starter) =>
    typeof starter === 'string' ? starter === action.type : starter(action),
  );

/** The flow an action starts (for the first action, and for replays), or null. */
export function cloudFlowFor(action: UnknownAction, place: CloudPlace) {
  const flow = (Object.keys(CLOUD_FLOWS) as CloudFlowName[]).find((name) => starts(name)(action));
  if (!flow) return null;
  const worker = CLOUD_FLOWS[flow].worker as (
    action: UnknownAction,
    place: CloudPlace,
  ) => Generator;
  return () => worker(action, place);
}

/**
 * The cloud's watchers, with the cloud's place (what it has acknowledged) shared by all. `first`
 * is the action that brought this code in, if one did (a Publish before cloud saves were ever
 * on, the wallet's cloud list arriving): it is served first.
 */
export function* cloudSaga(first: UnknownAction | null = null) {
  const place = newCloudPlace();
  yield* fork(sendInTurn, place);
  for (const [name, { worker, take }] of Object.entries(CLOUD_FLOWS)) {
    const run = worker as (action: UnknownAction, place: CloudPlace) => Generator;
    const serve = (shared: CloudPlace, action: UnknownAction) => run(action, shared);
    yield* take(starts(name as CloudFlowName), serve, place);
  }
  const firstFlow = first && cloudFlowFor(first, place);
  if (firstFlow) yield* fork(firstFlow);
  // A list already on screen is set beside the cloud's, if that is there already.
  else yield* fork(CLOUD_FLOWS.reconcile.worker as () => Generator);
}

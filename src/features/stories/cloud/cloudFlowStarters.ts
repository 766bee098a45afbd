/**
 * The cloud's flows by the events that start them, listed once (as the game's flowStarters.ts):
 * the loader in the stories' flows (cloudLoader.ts) waits for any of them before it downloads
 * the cloud's code; its watchers (cloudFlows.ts) run each flow's worker on its own. Sending is
 * not here: it runs from the start, as long as the cloud's flows do.
 */
import { storiesActions } from '../storiesSlice';
import { isCloudListArrival } from './cloudModel';

const {
  savedStoriesRequested,
  savedStoriesListed,
  cloudLoadRequested,
  cloudDeleteConfirmed,
  deleteConfirmed,
  publishRequested,
  unpublishRequested,
} = storiesActions;

/** Each flow and what starts it: an event's type, or a test of the action. */
export const CLOUD_FLOW_STARTERS = {
  /** The cloud's list set beside the browser's, when either arrives. */
  reconcile: [isCloudListArrival, savedStoriesListed.type],
  /** The saved stories shown or refreshed: the wallet's cloud list is read again. */
  readCloudAgain: [savedStoriesRequested.type],
  loadFromCloud: [cloudLoadRequested.type],
  deleteInCloud: [cloudDeleteConfirmed.type],
  deleteEverywhere: [deleteConfirmed.type],
  publish: [publishRequested.type],
  unpublish: [unpublishRequested.type],
} as const;

export type CloudFlowName = keyof typeof CLOUD_FLOW_STARTERS;

/** The flows only the cloud serves: the first of these to come loads the cloud's code. */
export const CLOUD_REQUESTS = [
  isCloudListArrival,
  cloudLoadRequested.type,
  cloudDeleteConfirmed.type,
  publishRequested.type,
  unpublishRequested.type,
] as const;

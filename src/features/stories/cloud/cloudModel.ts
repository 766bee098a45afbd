// Cloud saves and published stories as data (DESIGN.md, "Cloud saves and published stories"):
// what the stories slice keeps of them (this player's own state: how the saves are going up, a
// copy just kept, a publish under way), and how the wallet's cloud list (server data, in RTK
// Query: cloudApi.ts) is set beside the browser's. Small on purpose: the flows and the views
// that use them load on demand (cloudFlows.ts, views/).
import type { Action } from '@reduxjs/toolkit';

/** Why the cloud did not take a save, a publish or a delete; each is worded in both languages. */
export type CloudProblem =
  /** Past the 1 MB a story may hold. */
  | 'tooLarge'
  /** Past the 100 stories a wallet may keep. */
  | 'limit'
  /**
   * A picture past the bounds the cloud keeps pictures in (256 KB a picture, 40 a story, 20 MB
   * a wallet): it stays in the browser and is not sent again while the cloud's flows run.
   */
  | 'picturesRefused'
  /**
   * A picture the cloud refused for something else of its own (its row's data or constraints):
   * it stays in the browser and is not sent again while the cloud's flows run.
   */
  | 'pictureFailed'
  /** Past the writes a wallet may make a minute; tried again after the wait. */
  | 'rateLimited'
  /** The wallet's session is over (sign in again). */
  | 'signedOut'
  /** No answer: offline, or the backend is down; tried again later. */
  | 'unreachable'
  /** Anything else the backend refused. */
  | 'failed';

/** Why the cloud refused a picture, as the player is told: past a bound, or anything else of it. */
export type PictureRefusal = Extract<CloudProblem, 'picturesRefused' | 'pictureFailed'>;

/** A story of the wallet's in the cloud that this browser does not keep, as its card shows it. */
export interface CloudStory {
  id: string;
  revision: number;
  savedAt: string;
  /** The story it was kept as a copy of, when two devices played it on at once. */
  copyOf: string | null;
  publishedAt: string | null;
  chosenCharacter: string;
  chosenGenre: string;
  characterImage: string;
  previousParagraph: string;
  isFinal: boolean;
  endingType: string;
  turnCount: number;
}

export interface CloudState {
  /** How this browser's saves are going up: nothing waiting, sending, or waiting to try again. */
  sync: { status: 'idle' | 'sending' | 'waiting'; problem: CloudProblem | null };
  /** The publish or take-down under way, or how the last one failed. */
  publishing: {
    status: 'idle' | 'working' | 'failed';
    storyId: string | null;
    problem: CloudProblem | null;
  };
  /** A save from this browser was kept as a copy (another device had saved the story since). */
  keptAsCopy: { name: string } | null;
}

export const initialCloudState: CloudState = {
  sync: { status: 'idle', problem: null },
  publishing: { status: 'idle', storyId: null, problem: null },
  keptAsCopy: null,
};

/** What Publish and Unpublish name: the story's cloud id, and its record here if it has one. */
export interface PublishTarget {
  cloudId: string;
  localId: number | null;
}

/** The cloud ids of the stories this browser keeps and has sent (or brought down). */
export function cloudIdsHere(locals: readonly { cloud?: { id: string; revision: number } }[]) {
  return new Set(locals.flatMap(({ cloud }) => (cloud && cloud.revision > 0 ? [cloud.id] : [])));
}

/** The wallet's cloud stories this browser does not keep (another device's), newest first. */
export function elsewhereOf(
  cloud: readonly CloudStory[],
  locals: readonly { cloud?: { id: string; revision: number } }[],
): CloudStory[] {
  const here = cloudIdsHere(locals);
  return cloud.filter((story) => !here.has(story.id));
}

/**
 * Whether `action` is the wallet's cloud list arriving (RTK Query's fulfilled query of
 * cloudApi's `cloudStories`), told by its type so that the home bundle's loader need not load
 * RTK Query to know it.
 */
export function isCloudListArrival(action: Action): boolean {
  const meta = (action as { meta?: { arg?: { endpointName?: string } } }).meta;
  return action.type === 'api/executeQuery/fulfilled' && meta?.arg?.endpointName === 'cloudStories';
}

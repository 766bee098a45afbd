// Cloud saves and published stories as data (DESIGN.md, "Cloud saves and published stories"):
// what the stories slice keeps of them. Types only: the flows and the views that use them load
// on demand (cloudSaga.ts, views/).

/** Why the cloud did not take a save, a publish or a delete; each is worded in both languages. */
export type CloudProblem =
  /** Past the 1 MB a story may hold. */
  | 'tooLarge'
  /** Past the 100 stories a wallet may keep. */
  | 'limit'
  /** Past the writes a wallet may make a minute; tried again after the wait. */
  | 'rateLimited'
  /** The wallet's session is over (sign in again). */
  | 'signedOut'
  /** No answer: offline, or the backend is down; tried again later. */
  | 'unreachable'
  /** Anything else the backend refused. */
  | 'failed';

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
  /** Whose cloud this is (the wallet address), once listed. */
  owner: string | null;
  /** How this browser's saves are going up: nothing waiting, sending, or waiting to try again. */
  sync: { status: 'idle' | 'sending' | 'waiting'; problem: CloudProblem | null };
  /** The wallet's cloud stories this browser does not keep (another device's), newest first. */
  elsewhere: CloudStory[];
  /** The wallet's published stories: cloud id -> when. */
  published: Record<string, string>;
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
  owner: null,
  sync: { status: 'idle', problem: null },
  elsewhere: [],
  published: {},
  publishing: { status: 'idle', storyId: null, problem: null },
  keptAsCopy: null,
};

/** What Publish and Unpublish name: the story's cloud id, and its record here if it has one. */
export interface PublishTarget {
  cloudId: string;
  localId: number | null;
}

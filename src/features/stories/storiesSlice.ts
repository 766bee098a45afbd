// The saved stories as the player sees them: the list for the current wallet, the saved record of
// the story being played, the one notice on screen (SPEC.md section 8: 'Game saved
// successfully!', 'Story deleted!', 'Story loaded!', ...), and whether the browser has promised
// to keep them. The sagas do the I/O.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { gameActions } from '../game';
import {
  initialCloudState,
  type CloudProblem,
  type CloudState,
  type PublishTarget,
} from './cloud/cloudModel';
import type { ListedStory } from './browserPlace';
import type { CurrentRecord } from './storyRecord';
import type { PersistenceAnswer, StoragePersistence } from './persistentStorage';
import type { CloudLink } from './savedStory';
import type { StorageErrorReason } from './browserDb';
import { movedOnElsewhere, type RecordStamp } from './storyRevision';
import type { SkippedPicture, StoryImportErrorReason } from './storyImportError';

export type ListStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/** Why a notice is shown; each has its message in the catalogues (stories.notice.*). */
export type StoryNoticeKind =
  | 'saved'
  | 'saveFailed'
  | 'deleted'
  | 'deleteFailed'
  | 'loaded'
  | 'loadFailed'
  | 'imported'
  | 'importFailed'
  /** A save reached this browser but not the cloud, for a reason the player can act on. */
  | 'cloudSaveFailed';

/** Whether a notice tells of a failure (it says why, and stays until dismissed). */
export const isFailureNotice = (notice: StoryNotice) => notice.kind.endsWith('Failed');

export interface StoryNotice {
  kind: StoryNoticeKind;
  /** What went wrong, for the failures: a storage reason or an import problem. */
  reason: StorageErrorReason | StoryImportErrorReason | CloudProblem | 'damaged' | null;
  /** Tells one notice from the next, so each can expire on its own. */
  seq: number;
}

/**
 * Another tab has played this story on (storyRevision.ts). 'movedOn': it saved the record this
 * tab plays, so this tab's next save will be a story of its own. 'branched': that save happened;
 * this tab's line is the story `branchId`. Either way `storyId` is the other tab's story.
 */
export type OtherTabNotice =
  | { status: 'movedOn'; storyId: number }
  | { status: 'branched'; storyId: number; branchId: number };

/** A save of the story being played, as the save flow reports it. */
export interface SavedPayload extends CurrentRecord {
  manual: boolean;
  storyGeneration: number;
}

export interface StoriesState {
  list: {
    status: ListStatus;
    /** Whose stories these are: the wallet address, or 'anonymous'. */
    owner: string | null;
    stories: ListedStory[];
    error: StorageErrorReason | null;
  };
  /** The saved record of the story being played; auto-save keeps updating it. */
  current: CurrentRecord | null;
  /**
   * Which story is being played: it moves on with each new or loaded story, so a save that
   * finishes after the player moved on never makes the old record the new story's.
   */
  storyGeneration: number;
  notice: StoryNotice | null;
  /** Stays until the player answers it, or plays another story. */
  otherTab: OtherTabNotice | null;
  lastNoticeSeq: number;
  /** Local final stories deleted after this game's result reached the leaderboard. */
  localStoriesDeleted: number | null;
  /** Cloud saves and published stories (cloud/). */
  cloud: CloudState;
  /** Whether the browser has promised to keep the stories (persistentStorage.ts). */
  persistence: StoragePersistence;
}

export const initialStoriesState: StoriesState = {
  list: { status: 'idle', owner: null, stories: [], error: null },
  current: null,
  storyGeneration: 0,
  notice: null,
  otherTab: null,
  lastNoticeSeq: 0,
  localStoriesDeleted: null,
  cloud: initialCloudState,
  persistence: 'unknown',
};

/** Shows a notice in place of the one before. */
function notify(
  state: StoriesState,
  kind: StoryNoticeKind,
  reason: StoryNotice['reason'] = null,
): void {
  state.notice = { kind, reason, seq: (state.lastNoticeSeq += 1) };
}

export const storiesSlice = createSlice({
  name: 'stories',
  initialState: initialStoriesState,
  reducers: {
    /** The list was shown or Refresh pressed. */
    savedStoriesRequested(state) {
      state.list.status = 'loading';
      state.list.error = null;
    },
    savedStoriesListed(state, action: PayloadAction<{ owner: string; stories: ListedStory[] }>) {
      state.list = { status: 'loaded', error: null, ...action.payload };
    },
    savedStoriesFailed(state, action: PayloadAction<StorageErrorReason>) {
      state.list.status = 'failed';
      state.list.error = action.payload;
    },
    /** The player pressed the save button. */
    saveRequested() {},
    /**
     * A picture of a saved story was kept in MyStoriesDB, or let go there (its paragraph
     * written again), by the pictures' flows (issue 41): the places beyond the browser follow.
     */
    pictureKept(_state, _action: PayloadAction<{ storyId: number; turn: number }>) {},
    pictureForgotten(_state, _action: PayloadAction<{ storyId: number; turn: number }>) {},
    storySaved(state, action: PayloadAction<SavedPayload>) {
      const { manual, storyGeneration, ...current } = action.payload;
      if (storyGeneration !== state.storyGeneration) return;
      state.current = current;
      if (manual) notify(state, 'saved');
      // Saving works again: an earlier save failure is no longer news.
      else if (state.notice?.kind === 'saveFailed') state.notice = null;
    },
    /**
     * Another tab had saved the story since this one did, so this tab's line was saved as a new
     * story that split from `from`; this tab plays on in that one.
     */
    storySavedAsBranch(state, action: PayloadAction<SavedPayload & { from: number }>) {
      const { manual: _manual, storyGeneration, from, ...current } = action.payload;
      if (storyGeneration !== state.storyGeneration) return;
      state.current = current;
      state.otherTab = { status: 'branched', storyId: from, branchId: current.id };
      if (state.notice?.kind === 'saveFailed') state.notice = null;
    },
    /** Another tab said it saved a story (BroadcastChannel). */
    savedInAnotherTab(state, action: PayloadAction<{ id: number } & RecordStamp>) {
      if (state.otherTab?.status === 'branched') return;
      if (movedOnElsewhere(state.current, action.payload)) {
        state.otherTab = { status: 'movedOn', storyId: action.payload.id };
      }
    },
    /** The player chose to keep playing in this tab. */
    otherTabNoticeDismissed(state) {
      state.otherTab = null;
    },
    storySaveFailed(state, action: PayloadAction<StorageErrorReason>) {
      notify(state, 'saveFailed', action.payload);
    },
    /** Delete, once the player has confirmed it. */
    deleteConfirmed(_state, _action: PayloadAction<number>) {},
    storyDeleted(state, action: PayloadAction<number>) {
      state.list.stories = state.list.stories.filter((story) => story.id !== action.payload);
      if (state.current?.id === action.payload) state.current = null;
      notify(state, 'deleted');
    },
    storyDeleteFailed(state, action: PayloadAction<StorageErrorReason>) {
      notify(state, 'deleteFailed', action.payload);
    },
    loadRequested(_state, _action: PayloadAction<number>) {},
    storyLoaded(state, action: PayloadAction<CurrentRecord>) {
      state.current = action.payload;
      state.storyGeneration += 1;
      state.localStoriesDeleted = null;
      state.otherTab = null;
      notify(state, 'loaded');
    },
    storyLoadFailed(state, action: PayloadAction<StorageErrorReason | 'damaged' | null>) {
      notify(state, 'loadFailed', action.payload);
    },
    /** The text of a file the player picked to import. */
    importRequested(_state, _action: PayloadAction<string>) {},
    storyImported(state) {
      notify(state, 'imported');
    },
    /**
     * Pictures of an imported story that were not kept, each with its typed reason (the story
     * was imported all the same). Nothing shows them yet: a view of pictures will say them.
     */
    picturesSkipped(
      _state,
      _action: PayloadAction<{ storyId: number; skipped: SkippedPicture[] }>,
    ) {},
    storyImportFailed(state, action: PayloadAction<StorageErrorReason | StoryImportErrorReason>) {
      notify(state, 'importFailed', action.payload);
    },
    noticeDismissed(state, action: PayloadAction<number>) {
      if (state.notice?.seq === action.payload) state.notice = null;
    },
    /** How this browser's saves are going up to the cloud. */
    cloudSyncChanged(state, action: PayloadAction<CloudState['sync']>) {
      const { problem } = action.payload;
      // A bound the player can act on is said once, not with every save.
      if (problem && problem !== state.cloud.sync.problem && problem !== 'unreachable') {
        notify(state, 'cloudSaveFailed', problem);
      }
      state.cloud.sync = action.payload;
    },
    /** A story's save went up to the cloud (under `cloudId`, a copy's when it became one). */
    storyLinkedToCloud(state, action: PayloadAction<{ id: number; link: CloudLink }>) {
      const { id, link } = action.payload;
      if (state.current?.id === id) state.current.cloudId = link.id;
      const listed = state.list.stories.find((story) => story.id === id);
      if (listed) listed.cloud = link;
    },
    /** Stories deleted from the cloud on another device: this browser's copies go too. */
    storiesGoneFromCloud(state, action: PayloadAction<number[]>) {
      state.list.stories = state.list.stories.filter((story) => !action.payload.includes(story.id));
    },
    /** Another device had saved the story since: this browser's line went up as a copy. */
    cloudStoryKeptAsCopy(state, action: PayloadAction<{ name: string }>) {
      state.cloud.keptAsCopy = action.payload;
    },
    cloudCopyNoticeDismissed(state) {
      state.cloud.keptAsCopy = null;
    },
    /** Load, on a story kept only in the cloud: it comes down, then loads as any other. */
    cloudLoadRequested(_state, _action: PayloadAction<string>) {},
    /** Delete, confirmed, on a story kept only in the cloud. */
    cloudDeleteConfirmed(_state, _action: PayloadAction<string>) {},
    cloudStoryDeleted(state, _action: PayloadAction<string>) {
      notify(state, 'deleted');
    },
    cloudDeleteFailed(state, action: PayloadAction<CloudProblem>) {
      notify(state, 'deleteFailed', action.payload);
    },
    /** Publish, once the player has read what will be public. */
    publishRequested(state, action: PayloadAction<PublishTarget>) {
      state.cloud.publishing = {
        status: 'working',
        storyId: action.payload.cloudId,
        problem: null,
      };
    },
    unpublishRequested(state, action: PayloadAction<PublishTarget>) {
      state.cloud.publishing = {
        status: 'working',
        storyId: action.payload.cloudId,
        problem: null,
      };
    },
    /** Published: what is published is the cloud list's to say (cloud/cloudApi.ts). */
    storyPublished(state, _action: PayloadAction<{ cloudId: string; publishedAt: string }>) {
      state.cloud.publishing = { status: 'idle', storyId: null, problem: null };
    },
    storyUnpublished(state, _action: PayloadAction<string>) {
      state.cloud.publishing = { status: 'idle', storyId: null, problem: null };
    },
    publishFailed(state, action: PayloadAction<{ cloudId: string; problem: CloudProblem }>) {
      state.cloud.publishing = {
        status: 'failed',
        storyId: action.payload.cloudId,
        problem: action.payload.problem,
      };
    },
    /** The browser said whether it keeps the stories, asked without asking the player. */
    storagePersistenceRead(state, action: PayloadAction<PersistenceAnswer>) {
      state.persistence = action.payload;
    },
    /** The browser answered the first save's request to keep the stories. */
    storagePersistenceAnswered(state, action: PayloadAction<PersistenceAnswer>) {
      state.persistence = action.payload;
    },
    /** SPEC.md section 4, Saving: after the leaderboard save, the local copies go. */
    finishedStoriesDeleted(state, action: PayloadAction<number[]>) {
      state.localStoriesDeleted = action.payload.length;
      if (state.current && action.payload.includes(state.current.id)) state.current = null;
    },
  },
  extraReducers: (builder) => {
    // A new story is saved as a new record: once the game has taken it (Start New Game may be
    // refused, and the story being played then keeps its record).
    builder.addCase(gameActions.newStoryBegun, (state) => {
      state.current = null;
      state.storyGeneration += 1;
      state.localStoriesDeleted = null;
      state.otherTab = null;
    });
  },
  selectors: {
    selectSavedStories: (stories) => stories.list,
    selectStoriesNotice: (stories) => stories.notice,
    selectOtherTabNotice: (stories) => stories.otherTab,
    selectLocalStoriesDeleted: (stories) => stories.localStoriesDeleted,
    selectCloud: (stories) => stories.cloud,
    selectCurrentRecord: (stories) => stories.current,
    selectStoragePersistence: (stories) => stories.persistence,
    /** The newest unfinished story in the list, which Start New Game offers to continue. */
    selectUnfinishedStory: (stories) =>
      stories.list.status === 'loaded'
        ? (stories.list.stories.find((story) => !story.isFinal) ?? null)
        : null,
  },
});

export const storiesActions = storiesSlice.actions;
export const {
  selectSavedStories,
  selectStoriesNotice,
  selectOtherTabNotice,
  selectLocalStoriesDeleted,
  selectUnfinishedStory,
  selectCloud,
  selectCurrentRecord,
  selectStoragePersistence,
} = storiesSlice.selectors;

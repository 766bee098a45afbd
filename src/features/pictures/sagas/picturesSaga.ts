/**
 * The pictures' flows (issue 41), beside the game's and never in its way: the provider's image
 * models listed when a key is accepted, and for each story, one flow that draws its opening and
 * its ending when the story is illustrated, a moment when the player asks, a failed picture
 * again on Try again, and shows the pictures MyStoriesDB keeps of a story taken up. A new story
 * cancels the last one's flow, and any picture of it still being drawn.
 */
import type { Action } from '@reduxjs/toolkit';
import type { Task } from 'redux-saga';
import { call, cancel, fork, put, select, setContext, take, takeLatest } from 'typed-redux-saga';
import { gameActions, selectGame, type Story } from '../../game';
import {
  ENDING_TURN,
  OPENING_TURN,
  forgetPictureAt,
  picturesOf,
  selectCurrentRecord,
  storiesActions,
  type StoriesDb,
} from '../../stories';
import type { PictureMoment } from '../../llm';
import {
  picturesActions,
  picturesSlice,
  selectCanIllustrate,
  selectStoryPictures,
  roomForMoment,
  type PicturesState,
} from '../picturesSlice';
import { drawPicture } from './drawing';
import { listImageModels } from './imageModels';
import { fromContext } from './sagaContext';

const STORY_CHANGES = [
  gameActions.newGameStarted.type,
  gameActions.returnedHome.type,
  gameActions.savedStoryResumed.type,
];

/** What asks for a picture, or changes which pictures a story has. */
const PICTURE_EVENTS = [
  gameActions.openingReceived.type,
  gameActions.recapReceived.type,
  gameActions.illustrationChosen.type,
  gameActions.rewriteRequested.type,
  picturesActions.momentPictureRequested.type,
  picturesActions.pictureRetryRequested.type,
  storiesActions.storyLoaded.type,
];

const momentOf = (turn: number): PictureMoment =>
  turn === OPENING_TURN ? 'opening' : turn === ENDING_TURN ? 'ending' : 'moment';

/** The pictures MyStoriesDB keeps of the saved story being played, shown. */
export function* showKeptPictures() {
  const current = yield* select(selectCurrentRecord);
  if (!current) return;
  const open = yield* fromContext('openStoriesDb');
  try {
    const db: StoriesDb = yield* call(open);
    const kept = yield* call(picturesOf, db, current.id);
    yield* put(
      picturesActions.storyPicturesFound(
        kept.map(({ storyId, turn, moment, width, height, alt }) => ({
          storyId,
          turn,
          moment,
          width,
          height,
          alt,
        })),
      ),
    );
  } catch (error) {
    // The story plays on without them; the next visit tries again.
    console.warn('The pictures of this story could not be read', error);
  }
}

/**
 * The pictures past a story's last paragraph (one written again) are let go, and any of them
 * still being drawn is stopped.
 */
function* forgetPicturesPast(drawing: Map<number, Task>) {
  const { story } = yield* select(selectGame);
  const paragraphs = story.storyLog.filter((entry) => entry.kind === 'paragraph').length;
  const pictures = yield* select(selectStoryPictures);
  const stale = Object.keys(pictures)
    .map(Number)
    .filter((turn) => turn !== ENDING_TURN && turn >= paragraphs);
  if (stale.length === 0) return;
  const current = yield* select(selectCurrentRecord);
  const open = yield* fromContext('openStoriesDb');
  for (const turn of stale) {
    const task = drawing.get(turn);
    if (task) yield* cancel(task);
    yield* put(picturesActions.pictureDropped(turn));
    if (current) {
      try {
        yield* call(forgetPictureAt, yield* call(open), current.id, turn);
        yield* put(storiesActions.pictureForgotten({ storyId: current.id, turn }));
      } catch (error) {
        console.warn('A picture written over could not be deleted', error);
      }
    }
  }
}

/** The turns a picture should be drawn for after `action`, when the story is illustrated. */
export function turnsToDraw(
  story: Story,
  pictures: PicturesState['pictures'],
  action: Action,
): number[] {
  if (!story.illustrated) return [];
  const missing = (turn: number) => pictures[turn] === undefined;
  switch (action.type) {
    case gameActions.openingReceived.type:
      return [OPENING_TURN];
    case gameActions.recapReceived.type:
      return [ENDING_TURN];
    case gameActions.illustrationChosen.type: {
      // Pictures turned on once the story is under way: its opening, and its ending if it has one.
      const turns = story.storyLog.length > 0 ? [OPENING_TURN] : [];
      if (story.recap !== null) turns.push(ENDING_TURN);
      return turns.filter(missing);
    }
    case picturesActions.momentPictureRequested.type: {
      const turn = (action as ReturnType<typeof picturesActions.momentPictureRequested>).payload;
      // A moment past the story's room would be drawn and paid for, then refused.
      if (turn >= 1 && !roomForMoment(pictures)) return [];
      return missing(turn) ? [turn] : [];
    }
    case picturesActions.pictureRetryRequested.type: {
      const turn = (action as ReturnType<typeof picturesActions.pictureRetryRequested>).payload;
      return pictures[turn]?.status === 'failed' ? [turn] : [];
    }
    default:
      return [];
  }
}

/**
 * One story's pictures: each asked for is drawn in a flow of its own (at most one per turn at a
 * time), while the story goes on; the flow ends, and its drawings with it, with the story.
 */
export function* illustrateStory() {
  const drawing = new Map<number, Task>();
  for (;;) {
    const action = yield* take(PICTURE_EVENTS);
    if (action.type === storiesActions.storyLoaded.type) {
      yield* fork(showKeptPictures);
      continue;
    }
    if (action.type === gameActions.rewriteRequested.type) {
      yield* call(forgetPicturesPast, drawing);
      continue;
    }
    if (!(yield* select(selectCanIllustrate))) continue;
    const { story } = yield* select(selectGame);
    const pictures = yield* select(selectStoryPictures);
    for (const turn of turnsToDraw(story, pictures, action)) {
      if (drawing.get(turn)?.isRunning()) continue;
      drawing.set(turn, yield* fork(drawPicture, turn, momentOf(turn)));
    }
  }
}

/** A story's flow at a time: a new story (or none) cancels the last one's. */
function* followStories() {
  let story = yield* fork(illustrateStory);
  for (;;) {
    yield* take(STORY_CHANGES);
    yield* cancel(story);
    story = yield* fork(illustrateStory);
  }
}

/** MyStoriesDB, opened once for every picture flow. */
function openedOnce<T>(open: () => Promise<T>): () => Promise<T> {
  let opened: Promise<T> | null = null;
  return () => {
    opened ??= open().catch((error: unknown) => {
      opened = null;
      throw error;
    });
    return opened;
  };
}

/**
 * The root: started by its loader (the first key of a provider that draws, or the first
 * illustrated story), it first catches up with what came before its code did.
 */
export function* picturesSaga() {
  const injectSlice = yield* fromContext('injectSlice');
  injectSlice(picturesSlice);
  // A slice plugged in has its first state from the next action the store reduces: this one.
  yield* put(picturesActions.flowsStarted());
  const open = yield* fromContext('openStoriesDb');
  yield* setContext({ openStoriesDb: openedOnce(open) });
  yield* takeLatest(gameActions.apiKeyAccepted.type, listImageModels);
  yield* fork(followStories);
  const { apiKey } = yield* select(selectGame);
  if (apiKey !== '') yield* fork(listImageModels);
  yield* fork(showKeptPictures);
}

/**
 * A story's pictures (issue 41), beside the game's flows and never in their way, once a story is
 * illustrated (their code comes then, with the first picture: picturesSaga.ts fetches it): for
 * each story, one flow that draws its opening and its ending, a moment when the player asks, a
 * failed picture again on Try again, and shows the pictures MyStoriesDB keeps of a story taken
 * up. A new story cancels the last one's flow, and any picture of it still being drawn.
 */
import type { Action } from '@reduxjs/toolkit';
import { channel, type Channel, type Task } from 'redux-saga';
import { call, cancel, flush, fork, put, select, take } from 'typed-redux-saga';
import { gameActions, selectGame, type Story } from '../../game';
import {
  ENDING_TURN,
  OPENING_TURN,
  copySharedPictures,
  forgetPictureAt,
  picturesOf,
  selectCurrentRecord,
  storiesActions,
  type StoriesDb,
} from '../../stories';
import type { PictureMoment } from '../../llm';
import {
  picturesActions,
  selectCanIllustrate,
  selectListIsAnotherProviders,
  selectStoryPictures,
  roomForMoment,
  type PicturesState,
} from '../picturesSlice';
import { letGoOfHandedPicture, letGoOfHandedPictures } from '../handedOver';
import { drawPicture } from './drawing';
import { STORY_CHANGES } from './pictureEvents';
import { fromContext } from './sagaContext';

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
      yield* call(letGoOfHandedPicture, current.id, turn);
      try {
        yield* call(forgetPictureAt, yield* call(open), current.id, turn);
        yield* put(storiesActions.pictureForgotten({ storyId: current.id, turn }));
      } catch (error) {
        console.warn('A picture written over could not be deleted', error);
      }
    }
  }
}

/**
 * The story went on as a branch of its own (another tab had played it on): the branch keeps
 * copies of the pictures of the scenes it shares with the story it split from, shows them from
 * there, and sends them to the wallet's cloud with its saves (pictureKept, as a drawn one is).
 */
export function* keepBranchPictures({ id, from }: { id: number; from: number }) {
  const open = yield* fromContext('openStoriesDb');
  try {
    const turns = yield* call(copySharedPictures, yield* call(open), from, id);
    if (turns.length === 0) return;
    // Shown from the branch only where it is the story in play: a branch reported after the
    // player took up the story it split from (the stories' slice lets that report go) is not.
    if ((yield* select(selectCurrentRecord))?.id === id) {
      yield* put(picturesActions.branchPicturesKept({ from, storyId: id, turns }));
    }
    for (const turn of turns) yield* put(storiesActions.pictureKept({ storyId: id, turn }));
  } catch (error) {
    // The branch plays on; its pictures stay where they were, with the story it split from.
    console.warn('The pictures this branch shares with its story could not be copied', error);
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
 * Its events come from `events`, the story's (followStories).
 */
export function* illustrateStory(events: Channel<Action>) {
  const drawing = new Map<number, Task>();
  for (;;) {
    const action = yield* take(events);
    if (action.type === storiesActions.storyLoaded.type) {
      yield* fork(showKeptPictures);
      continue;
    }
    if (action.type === gameActions.rewriteRequested.type) {
      yield* call(forgetPicturesPast, drawing);
      continue;
    }
    if (storiesActions.storySavedAsBranch.match(action)) {
      yield* fork(keepBranchPictures, action.payload);
      continue;
    }
    // No model draws; but a new provider's list being read is waited for (drawing.ts).
    if (!(yield* select(selectCanIllustrate)) && !(yield* select(selectListIsAnotherProviders))) {
      continue;
    }
    const { story } = yield* select(selectGame);
    const pictures = yield* select(selectStoryPictures);
    for (const turn of turnsToDraw(story, pictures, action)) {
      if (drawing.get(turn)?.isRunning()) continue;
      drawing.set(turn, yield* fork(drawPicture, turn, momentOf(turn)));
    }
  }
}

/** A story's pictures' flow; the first one shows the pictures its story keeps, then follows. */
function* storyFlow(events: Channel<Action>, keptFirst: boolean) {
  // Known before its first event is read: pictures turned on again are not drawn again where
  // they are kept. Cancelled with the flow when the story changes.
  if (keptFirst) yield* call(showKeptPictures);
  yield* call(illustrateStory, events);
}

/**
 * The events this code may act on when it comes: `first` (the event that wanted pictures, if
 * one did) and those buffered while it was fetched, from the last story change on (events of a
 * story the player has left meanwhile are not acted on for the one in play). A story taken up
 * meanwhile is not read twice: the first story flow shows what it keeps.
 */
function* stillCurrent(events: Channel<Action>, first: Action | null) {
  const buffered = [...(first ? [first] : []), ...(yield* flush(events))];
  const lastChange = buffered.findLastIndex((action) => STORY_CHANGES.includes(action.type));
  return buffered
    .slice(lastChange + 1)
    .filter((action) => action.type !== storiesActions.storyLoaded.type);
}

/**
 * A story's flow at a time, fed with the events that came while this code was fetched (the one
 * that wanted pictures first: stillCurrent) and then `events` (STORY_FLOW_EVENTS): a new story
 * (or none) cancels the last one's, and every other event goes to the story's flow.
 */
export function* followStories(events: Channel<Action>, first: Action | null = null) {
  yield* put(picturesActions.storyFlowsStarted());
  let storyEvents = channel<Action>();
  for (const action of yield* call(stillCurrent, events, first)) {
    yield* put(storyEvents, action);
  }
  let story = yield* fork(storyFlow, storyEvents, true);
  for (;;) {
    const action = yield* take(events);
    if (!STORY_CHANGES.includes(action.type)) {
      yield* put(storyEvents, action);
      continue;
    }
    yield* cancel(story);
    yield* call(letGoOfHandedPictures);
    storyEvents.close();
    storyEvents = channel<Action>();
    story = yield* fork(storyFlow, storyEvents, false);
  }
}

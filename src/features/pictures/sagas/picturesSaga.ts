/**
 * The pictures' root (issue 41), beside the game's flows and never in their way: the provider's
 * image models listed when a key is accepted, so "Illustrate this story" can be offered; and,
 * from the first story that is illustrated (or taken up with pictures kept), that story's
 * pictures, whose flows and client come only then (storyPictures.ts, in their own chunk): a game
 * that never turns pictures on never downloads the code that draws them (part 6).
 */
import type { Action } from '@reduxjs/toolkit';
import {
  actionChannel,
  call,
  fork,
  put,
  select,
  setContext,
  take,
  takeLatest,
} from 'typed-redux-saga';
import { gameActions, selectGame, selectStory } from '../../game';
import { keepsPictures, openedOnce, selectCurrentRecord, storiesActions } from '../../stories';
import { picturesActions, picturesSlice } from '../picturesSlice';
import { listImageModels } from './imageModels';
import { STORY_FLOW_EVENTS } from './pictureEvents';
import { fromContext } from './sagaContext';

/**
 * Whether the story in play has pictures to draw or show: it is illustrated, or, taken up
 * (`storyLoaded`, or before these flows came: `action` null), it keeps pictures from when it was.
 */
function* wantsStoryPictures(action: Action | null) {
  if ((yield* select(selectStory)).illustrated) return true;
  if (action !== null && !storiesActions.storyLoaded.match(action)) return false;
  const current = yield* select(selectCurrentRecord);
  if (!current) return false;
  try {
    const open = yield* fromContext('openStoriesDb');
    return yield* call(keepsPictures, yield* call(open), current.id);
  } catch (error) {
    console.warn('Whether this story keeps pictures could not be read', error);
    return false;
  }
}

/** A story's pictures' flows, in the chunk of the code that draws (drawingClient.ts). */
const fetchStoryPictures = () =>
  import(/* webpackChunkName: "pictures-drawing" */ './storyPictures');

/**
 * The story pictures' code, or null when it could not be fetched (the network dropped, or a
 * tab left open across a new release): the next event that wants pictures fetches it again.
 */
function* storyPicturesCode() {
  const load = (yield* fromContext('loadStoryPictures')) ?? fetchStoryPictures;
  try {
    return yield* call(load);
  } catch (error) {
    console.warn('The code that draws pictures could not be fetched; it is asked for again', error);
    yield* put(picturesActions.storyFlowsMissing());
    return null;
  }
}

/**
 * Waits for a story that wants pictures, then fetches their flows and hands them the event that
 * wanted them and every story event after it: those that come while the code is fetched (or
 * while a story's pictures are looked for) wait in a buffer, so an opening that arrives
 * meanwhile is still drawn.
 */
export function* followWhenIllustrated() {
  const events = yield* actionChannel(STORY_FLOW_EVENTS);
  try {
    let action: Action | null = null;
    for (;;) {
      // Events before the story wanted pictures ask for none: they are read and let go.
      if (yield* call(wantsStoryPictures, action)) {
        const code = yield* call(storyPicturesCode);
        if (code) {
          yield* call(code.followStories, events, action);
          return;
        }
      }
      action = yield* take(events);
    }
  } finally {
    events.close();
  }
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
  // Opened once for every picture flow, and again after the browser drops it (stories' own).
  yield* setContext({ openStoriesDb: openedOnce(open) });
  yield* takeLatest(gameActions.apiKeyAccepted.type, listImageModels);
  yield* fork(followWhenIllustrated);
  const { apiKey } = yield* select(selectGame);
  if (apiKey !== '') yield* fork(listImageModels);
}

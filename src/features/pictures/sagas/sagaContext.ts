/**
 * The pictures' part of the saga context (DESIGN.md, where side effects live), and the reader
 * their flows use: the provider's picture endpoints and the browser's compression, with the
 * clock every wait goes through and MyStoriesDB, which the saved stories' part opens.
 */
import type { Action, Reducer } from '@reduxjs/toolkit';
import type { Channel } from 'redux-saga';
import { contextReader, type ClockContext } from '../../../shared/sagaContext';
import type { ModelListRequest, PictureRequest } from '../../llm';
import type { StoriesContext } from '../../stories';

/** A picture as it is kept: WebP or JPEG, resized to what the page shows. */
export interface KeptImage {
  blob: Blob;
  width: number;
  height: number;
}

export interface PictureClient {
  /** The provider's model list to find its image models in (llm fetchImageModelList). */
  listImageModels(request: ModelListRequest): Promise<unknown>;
  /**
   * One picture, drawn with the player's key (llm requestPicture) and compressed for keeping
   * (stories compressPicture), off the page's main thread where the browser can: what comes
   * back is the picture as it is kept, never the provider's megabytes.
   */
  draw(request: PictureRequest): Promise<KeptImage>;
}

export interface PicturesContext extends ClockContext, Pick<StoriesContext, 'openStoriesDb'> {
  pictureClient: PictureClient;
  /**
   * Plugs the pictures' slice into the store as their flows start (it comes with their code:
   * a game that can have no pictures never downloads it).
   */
  injectSlice: (slice: { reducerPath: string; reducer: Reducer }) => void;
  /**
   * Fetches a story's pictures' flows (storyPictures.ts), which come with the first story
   * illustrated: unless given (a test's, at once), their chunk in the page.
   */
  loadStoryPictures?: () => Promise<StoryPicturesCode>;
}

/** What a story's pictures' code gives the pictures' root: its flows, fed with its events. */
export interface StoryPicturesCode {
  followStories(events: Channel<Action>, first: Action | null): Generator<unknown, void, unknown>;
}

/** One value of the context the pictures' flows read, typed by its key. */
export const fromContext = contextReader<PicturesContext>();

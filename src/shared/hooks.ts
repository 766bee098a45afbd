/**
 * The store's hooks for any view, of the app or of a feature. A feature's view never learns the
 * app's whole state (DESIGN.md, layout: features do not import the app): each of its selectors
 * is typed on the slices it reads (`(state: { game: GameState }) => ...`), and useAppSelector
 * takes its types from the selector. Views dispatch plain actions; the flows do the rest.
 */
import type { Dispatch, Store, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';

export const useAppDispatch = useDispatch.withTypes<Dispatch<UnknownAction>>();

/** A selector's result, typed by the selector: the state is the part of it the selector names. */
export const useAppSelector: <State, Selected>(
  selector: (state: State) => Selected,
  equalityFn?: (left: Selected, right: Selected) => boolean,
) => Selected = useSelector;

/**
 * The store itself, typed on the slices the view reads, for a view that follows it outside
 * React's renders (the words being streamed, StoryLog.tsx). Any other view selects.
 */
export const useAppStore: <State>() => Store<State> = useStore;

/**
 * A real store running the game's flows side by side, as the app does: the root reducer, the
 * game's saga with its watchers (takeLeading, takeLatest), and the saga context a test gives.
 * It keeps every action dispatched, in order, as Redux DevTools would, and tells a test when
 * an action of a type has come: a test waits for the game's events, never for a clock.
 */
import { Tuple, configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { rootReducer, type RootState, type SagaContext } from '../../src/app/store';
import { seededRng } from '../../src/engine/random';
import { gameSaga } from '../../src/features/game';
import { virtualClock } from './virtualClock';

export function gameStore(state: RootState, context: Partial<SagaContext>) {
  const actions: UnknownAction[] = [];
  let waiting: { type: string; resolve: () => void }[] = [];
  const recorder: Middleware = () => (next) => (action) => {
    // Kept before it goes on: the puts it sets off come after it, as in DevTools.
    actions.push(action as UnknownAction);
    const result = next(action);
    const { type } = action as UnknownAction;
    const heard = waiting.filter((wait) => wait.type === type);
    waiting = waiting.filter((wait) => wait.type !== type);
    for (const wait of heard) wait.resolve();
    return result;
  };
  const sagas = createSagaMiddleware({
    context: {
      random: seededRng(11),
      clock: virtualClock(),
      storage: null,
      connectPage: null,
      ...context,
    },
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: state,
    middleware: () => new Tuple(recorder, sagas),
  });
  const task = sagas.run(gameSaga);
  return {
    store,
    actions,
    /**
     * Resolves once the next action of this type has been dispatched and every flow it set off
     * has gone as far as it can without waiting. Ask before the action that leads to it.
     */
    dispatched: (type: string) => new Promise<void>((resolve) => waiting.push({ type, resolve })),
    stop: () => task.cancel(),
  };
}

/**
 * Replaying the game's flows in jest with redux-saga-test-plan, from the public API only: a
 * worker from the feature index, the real root reducer, and the saga context as static
 * providers. `replay` turns a recorded session (a Redux DevTools export cut at the action that
 * started a flow, and the model's answers from the fake provider's log) into an expectSaga run
 * that must put the same actions in the same order. No server, no timeout: the run ends when
 * the worker does (`run(false)`).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import type { StaticProvider } from 'redux-saga-test-plan/providers';
import { injectSlice, rootReducer, type RootState, type SagaContext } from '../../src/app/store';
import { rollOutcome } from '../../src/engine/outcome';
import { seededRng } from '../../src/engine/random';
import { chooseScenarioType } from '../../src/engine/scenario';
import { flowFor, gameActions } from '../../src/features/game';
import { followStories } from '../../src/features/pictures';
import { makeOutbox } from '../../src/features/stories/outbox';
import { scriptedModel, type ModelScript } from './scriptedModel';
import { virtualClock } from './virtualClock';

/**
 * The saga context as static providers: a seeded random source, a virtual clock from 0 (a wait
 * ends as soon as the flows have nothing else to do), no page, an outbox of its own.
 */
export function contextProviders(context: Partial<SagaContext>): StaticProvider[] {
  const full: Partial<SagaContext> = {
    random: seededRng(1),
    clock: virtualClock(),
    storage: null,
    connectPage: null,
    // The browser's saves on their way to the other places: a worker run alone has its own.
    storyOutbox: makeOutbox(),
    // A slice that comes with lazily loaded flows is plugged into the app's reducer, as makeStore does.
    injectSlice,
    // A story's pictures' flows, fetched in the page with their chunk: here at once.
    loadStoryPictures: () => Promise.resolve({ followStories }),
    ...context,
  };
  return Object.entries(full).map(([key, value]) => [matchers.getContext(key), value]);
}

export interface RecordedSession {
  /** The store's state just before the first action. */
  state: RootState;
  /** The actions, from the one that started the flow (a choice, a name, a key). */
  actions: UnknownAction[];
  /** The model's answers, in the order it was asked. */
  model: ModelScript;
}

/**
 * The actions a replay compares: the flow's own. Stream actions depend on how the reply was cut
 * into frames, and the saved stories' actions come from another feature's flow.
 */
export const isReplayed = (action: UnknownAction) =>
  action.type !== gameActions.segmentStreamed.type && !action.type.startsWith('stories/');

/**
 * An expectSaga run of the flow the session's first action started, with the session's rolls
 * (outcome, scenario) handed in for the game's own, and the model answering from its log.
 */
export function replay(session: RecordedSession) {
  const [trigger, ...later] = session.actions;
  const flow = trigger && flowFor(trigger);
  if (!flow) throw new Error(`No flow starts with ${trigger?.type ?? 'no action'}`);
  const rolled = later.find(gameActions.outcomeRolled.match);
  const picked = later.find(gameActions.scenarioPicked.match);
  const rolls: StaticProvider[] = [
    ...(rolled ? [[matchers.call.fn(rollOutcome), rolled.payload.outcome] as StaticProvider] : []),
    ...(picked
      ? [[matchers.call.fn(chooseScenarioType), picked.payload.scenarioType] as StaticProvider]
      : []),
  ];
  const model = scriptedModel(session.model);
  const run = expectSaga(flow)
    // The store reduces an action before any saga hears it.
    .withReducer(rootReducer, rootReducer(session.state, trigger))
    .provide([...rolls, ...contextProviders({ model })]);
  return { run, model, expected: later.filter(isReplayed) };
}

/** Replays a session to its end and returns the actions its flow put, to compare in order. */
export async function replayedPuts(session: RecordedSession) {
  const { run, expected } = replay(session);
  const result = await run.run(false);
  const puts = result.effects.put
    .map((effect) => (effect as { payload: { action: UnknownAction } }).payload.action)
    .filter(isReplayed);
  return { puts, expected, state: result.storeState as RootState };
}

/**
 * A Redux DevTools session export, read back and replayed (README, "Debugging with Redux
 * DevTools"). The extension's Export writes `{ "payload": "<JSON of the actions>",
 * "preloadedState": "<JSON of the state before them>" }`: every action it kept (hidden ones
 * too), and, once `maxAge` has dropped older actions, the state they left (else no
 * preloadedState, and the session starts from the reducer's initial state).
 *
 *   const session = readDevToolsExport(fs.readFileSync('state.json', 'utf8'));
 *   const { states } = replayStates(rootReducer, session);   // the state after each action
 *   const { state, actions } = cutAt(rootReducer, session, gameActions.choiceMade.match);
 */
import type { UnknownAction } from '@reduxjs/toolkit';

/** The file the extension's Export writes. */
export interface DevToolsExportFile {
  payload: string;
  preloadedState?: string;
}

export interface DevToolsSession<S> {
  /** The state before the first action, when the export has one. */
  preloadedState: S | undefined;
  actions: UnknownAction[];
}

type Replayable<S> = (state: S | undefined, action: UnknownAction) => S;

/** The action the extension starts its history with. */
export const DEVTOOLS_INIT: UnknownAction = { type: '@@INIT' };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value));

function parseJson(text: string, what: string): unknown {
  if (text.includes('"$jsan"')) {
    throw new Error(
      `The export's ${what} holds jsan references ("$jsan"): it was written without the store's serialize options (src/app/devtools.ts)`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`The export's ${what} is not JSON: ${(error as Error).message}`);
  }
}

/** Reads an export (the file's text, or its parsed object). */
export function readDevToolsExport<S>(file: string | DevToolsExportFile): DevToolsSession<S> {
  const parsed = typeof file === 'string' ? parseJson(file, 'file') : file;
  if (!isPlainObject(parsed) || typeof parsed.payload !== 'string') {
    throw new Error('Not a Redux DevTools export: no "payload" string of actions');
  }
  const actions = parseJson(parsed.payload, 'payload');
  if (!Array.isArray(actions)) throw new Error("The export's payload is not a list of actions");
  actions.forEach((action: unknown, index) => {
    if (!isPlainObject(action) || typeof action.type !== 'string') {
      throw new Error(`Action ${index} of the export is not a plain object with a type`);
    }
  });
  const { preloadedState } = parsed;
  if (preloadedState !== undefined && typeof preloadedState !== 'string') {
    throw new Error('The export\'s "preloadedState" is not a string of JSON');
  }
  return {
    preloadedState:
      preloadedState === undefined ? undefined : (parseJson(preloadedState, 'preloadedState') as S),
    actions: actions as UnknownAction[],
  };
}

/** Writes a session as the extension's Export does, through a JSON replacer if given. */
export function writeDevToolsExport<S>(
  session: DevToolsSession<S>,
  replacer?: (key: string, value: unknown) => unknown,
): string {
  const stringify = (value: unknown) => JSON.stringify(value, replacer);
  return JSON.stringify(
    {
      payload: stringify(session.actions),
      preloadedState:
        session.preloadedState === undefined ? undefined : stringify(session.preloadedState),
    },
    null,
    '\t',
  );
}

/**
 * Replays a session into a reducer, as the extension does on import: the first state is the
 * reducer's answer to @@INIT from the preloaded state, then one state after each action.
 */
export function replayStates<S>(
  reducer: Replayable<S>,
  session: DevToolsSession<S>,
): { initial: S; states: S[] } {
  const initial = reducer(session.preloadedState, DEVTOOLS_INIT);
  let state = initial;
  const states = session.actions.map((action) => (state = reducer(state, action)));
  return { initial, states };
}

/**
 * A session cut where a flow starts: the state just before the first action that matches, and
 * the actions from it on (what a saga replay starts from).
 */
export function cutAt<S>(
  reducer: Replayable<S>,
  session: DevToolsSession<S>,
  starts: (action: UnknownAction, index: number) => boolean,
): { state: S; actions: UnknownAction[] } {
  const at = session.actions.findIndex(starts);
  if (at === -1) throw new Error('No action of the session matches where the cut should be');
  const before = { ...session, actions: session.actions.slice(0, at) };
  const { initial, states } = replayStates(reducer, before);
  return { state: states.at(-1) ?? initial, actions: session.actions.slice(at) };
}

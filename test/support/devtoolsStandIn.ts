/**
 * A stand-in for the Redux DevTools extension's page API, the part Redux Toolkit's
 * configureStore uses (`window.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__(options)(...enhancers)`, and
 * `window.__REDUX_DEVTOOLS_EXTENSION__(options)`), doing with the options what the extension
 * does (reduxjs/redux-devtools, extension/src/pageScript): its enhancer sits next to the store,
 * under the middleware, so it sees every action the reducer gets; the monitor is sent each
 * action not hidden by `actionsDenylist`, through `actionSanitizer`/`stateSanitizer` and then
 * serialized with `serialize.replacer`; `maxAge` counts only the shown actions; an export
 * ("Export" in the extension) is every kept action, hidden ones too, unsanitized, and the
 * committed state, serialized with the replacer, in the file format
 * `{ payload: <JSON of the actions>, preloadedState: <JSON of the state> }`.
 *
 * Stricter than the extension, which lets JSON.stringify drop what it cannot write: an action
 * that is not a plain object, or holds a function, a class instance, a symbol, a bigint, NaN
 * or Infinity, and a state that does, is reported (`problems`, and console.error).
 *
 * `installDevToolsStandIn` is self-contained (it is handed to page.addInitScript as its source):
 * it may use nothing from outside its body.
 */

/** What a test reads back: `window.__DEVTOOLS_STAND_IN__`. */
export interface DevToolsStandIn {
  /** The options the store gave, functions by name only. */
  options: {
    name?: string;
    maxAge?: number;
    actionsDenylist?: string | string[];
    actionsAllowlist?: string | string[];
    sanitizers: string[];
    replacer: boolean;
  } | null;
  /** The monitor's messages: each shown action and its state, sanitized and serialized. */
  shown: { action: string; state: string }[];
  /** How many actions reached the store, and how many of them the monitor was not shown. */
  received: number;
  hidden: number;
  /** The types of all actions, in order (hidden ones too). */
  types: string[];
  /** Actions and states that are not plain JSON, with where and why. */
  problems: string[];
  /** The state the store started with, serialized as the extension would send it. */
  initialState: string | null;
  /** The export file the extension would write now. */
  exportFile(): string;
}

/** Installs the stand-in on `target`: the page's window unless another object is given. */
export function installDevToolsStandIn(target: object = window): void {
  type AnyAction = { type: unknown; [key: string]: unknown };
  type Reducer = (state: unknown, action: AnyAction) => unknown;
  type StoreLike = {
    dispatch: (action: AnyAction) => unknown;
    getState: () => unknown;
    subscribe: (listener: () => void) => () => void;
    replaceReducer: (reducer: Reducer) => void;
  };
  type CreateStore = (reducer: Reducer, preloadedState?: unknown, enhancer?: unknown) => StoreLike;
  type Enhancer = (next: CreateStore) => CreateStore;
  type Options = {
    name?: string;
    maxAge?: number;
    actionsDenylist?: string | string[];
    actionsAllowlist?: string | string[];
    actionSanitizer?: (action: unknown, id: number) => unknown;
    stateSanitizer?: (state: unknown, index: number) => unknown;
    serialize?: boolean | { replacer?: (key: string, value: unknown) => unknown };
  };

  const isPlainObject = (value: unknown): value is Record<string, unknown> => {
    if (typeof value !== 'object' || value === null) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  };

  /** Where a value is not plain JSON; undefined object fields are let through, as RTK does. */
  const notPlainJson = (value: unknown, path: string): string | null => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
    if (typeof value === 'number') return Number.isFinite(value) ? null : `${path}: ${value}`;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        if (value[i] === undefined) return `${path}[${i}]: undefined in an array`;
        const found = notPlainJson(value[i], `${path}[${i}]`);
        if (found) return found;
      }
      return null;
    }
    if (isPlainObject(value)) {
      for (const [key, field] of Object.entries(value)) {
        if (field === undefined) continue;
        const found = notPlainJson(field, `${path}.${key}`);
        if (found) return found;
      }
      return null;
    }
    if (typeof value === 'object') {
      const kind = (value as object).constructor?.name ?? 'an object without a prototype';
      return `${path}: ${kind}`;
    }
    return `${path}: a ${typeof value}`;
  };

  const recording: DevToolsStandIn = {
    options: null,
    shown: [],
    received: 0,
    hidden: 0,
    types: [],
    problems: [],
    initialState: null,
    exportFile: () => {
      throw new Error('No store connected to the DevTools stand-in');
    },
  };

  const instrument =
    (config: Options): Enhancer =>
    (next) =>
    (reducer, preloadedState, enhancer) => {
      const replacer = typeof config.serialize === 'object' ? config.serialize.replacer : undefined;
      const stringify = (value: unknown) =>
        replacer
          ? JSON.stringify(value, (key, field) => replacer(key, field))
          : JSON.stringify(value);
      const listOf = (list: string | string[] | undefined) =>
        list === undefined ? undefined : Array.isArray(list) ? list.join('|') : list;
      const allowlist = listOf(config.actionsAllowlist);
      const denylist = listOf(config.actionsDenylist);
      const isHidden = (type: string) =>
        allowlist !== undefined
          ? !type.match(allowlist)
          : denylist !== undefined && !!type.match(denylist);
      const maxAge = config.maxAge ?? 50;
      // A new store (a page loaded again) is a new instance for the monitor: a new recording.
      Object.assign(recording, { shown: [], received: 0, hidden: 0, types: [], problems: [] });
      recording.options = {
        name: config.name,
        maxAge: config.maxAge,
        actionsDenylist: config.actionsDenylist,
        actionsAllowlist: config.actionsAllowlist,
        sanitizers: [
          ...(config.actionSanitizer ? ['actionSanitizer'] : []),
          ...(config.stateSanitizer ? ['stateSanitizer'] : []),
        ],
        replacer: !!replacer,
      };

      const store = next(reducer, preloadedState, enhancer);
      /** The kept history, as the extension's instrument keeps it: every action, hidden ones too. */
      const kept: { action: AnyAction; state: unknown; hidden: boolean }[] = [];
      let committed: { state: unknown } | null = null;
      let nextId = 1;
      const report = (problem: string) => {
        recording.problems.push(problem);
        console.error(`Redux DevTools stand-in: ${problem}`);
      };
      const sendState = (state: unknown, index: number) =>
        stringify(config.stateSanitizer ? config.stateSanitizer(state, index) : state);
      recording.initialState = sendState(store.getState(), 0);

      const dispatch = (action: AnyAction) => {
        if (!isPlainObject(action) || typeof action.type !== 'string') {
          report(`an action that is not a plain object with a string type: ${String(action)}`);
          return store.dispatch(action);
        }
        const actionProblem = notPlainJson(action, action.type);
        if (actionProblem) report(`action ${actionProblem}`);
        const result = store.dispatch(action);
        const state = store.getState();
        const stateProblem = notPlainJson(state, `state after ${action.type}`);
        if (stateProblem) report(stateProblem);
        const id = nextId;
        nextId += 1;
        const hidden = isHidden(action.type);
        recording.received += 1;
        recording.types.push(action.type);
        kept.push({ action, state, hidden });
        if (hidden) {
          recording.hidden += 1;
        } else {
          recording.shown.push({
            action: stringify(config.actionSanitizer ? config.actionSanitizer(action, id) : action),
            state: sendState(state, id),
          });
          // maxAge counts the initial state and the shown actions: the oldest shown action, and
          // the hidden ones before it, are committed.
          if (kept.filter((entry) => !entry.hidden).length >= maxAge) {
            let dropped = kept.shift();
            while (dropped?.hidden) dropped = kept.shift();
            committed = { state: dropped?.state };
          }
        }
        return result;
      };

      recording.exportFile = () =>
        JSON.stringify(
          {
            payload: stringify(kept.map((entry) => entry.action)),
            preloadedState: committed ? stringify(committed.state) : undefined,
          },
          null,
          '\t',
        );
      return { ...store, dispatch };
    };

  const compose =
    (config: Options) =>
    (...enhancers: Enhancer[]): Enhancer =>
    (createStore) =>
      enhancers.reduceRight(
        (composed, enhance) => enhance(composed),
        instrument(config)(createStore),
      );

  Object.assign(target, {
    __DEVTOOLS_STAND_IN__: recording,
    __REDUX_DEVTOOLS_EXTENSION__: (config: Options = {}) => instrument(config),
    __REDUX_DEVTOOLS_EXTENSION_COMPOSE__: (...args: unknown[]) =>
      args.length === 1 && typeof args[0] === 'object'
        ? compose(args[0] as Options)
        : compose({})(...(args as Enhancer[])),
  });
}

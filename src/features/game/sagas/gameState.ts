/**
 * What the game's flows read of the store, and the checks a model's reply must pass before the
 * game goes on with it.
 */
import { call, select, take } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { normalizeOptions } from '../../../engine/options';
import { pickText } from '../../../engine/reply';
import { providerById } from '../../llm';
import { gameActions, type GameState } from '../gameSlice';
import { problemOf } from './problems';

export { FIRST_ENDING_TURN, sketchOf, storySoFar } from '../turnPrompt';

/** The story context a prompt keeps when the provider said it was too large (a 413). */
export const TRIMMED_CONTEXT_BUDGET = 120;

export interface State {
  game: GameState;

  settings: { provider: string; model: string; baseUrl: string };
  wallet: { status: string; address: string | null };
}

export const selectState = (state: State) => state;

const { waitCancelled, writingStopped, returnedHome, newGameStarted, savedStoryResumed } =
  gameActions;

/** The player leaves the story: what was written for it is no longer wanted. */
export const LEAVING_THE_STORY = [returnedHome.type, newGameStarted.type, savedStoryResumed.type];

/** Cancel on the overlay, Stop, and leaving: the opening or a turn being written stops. */
export const STOPPING_THE_STORY = [waitCancelled.type, writingStopped.type, ...LEAVING_THE_STORY];

/**
 * Until the player stops the story (STOPPING_THE_STORY). A Stop counts only if the slice took
 * it: one pressed as the segment came in, or while the recap is written, changes nothing and
 * stops nothing.
 */
export function* storyStopped() {
  while (true) {
    const action = yield* take(STOPPING_THE_STORY);
    if (!gameActions.writingStopped.match(action)) return;
    const { turn } = (yield* select(selectState)).game;
    if (turn.phase === 'stopped' || turn.phase === 'naming') return;
  }
}

/** The Local Network Access check (localNetwork.ts), downloaded the first time it is needed. */
const loadLocalNetworkCause = () =>
  import(/* webpackChunkName: "local-network" */ './localNetwork').then(
    (module) => module.withLocalNetworkCause,
    // Not downloaded (the network is down too): the problem as it was seen.
    () => null,
  );

/**
 * The cause of a failed request, for the player (DESIGN.md: errors in the interface language):
 * a server out of reach may be the browser's Local Network Access refusing, which is asked only
 * then, so a game that meets no such failure never downloads the check.
 */
export function* problemWith(error: unknown) {
  const { settings } = yield* select(selectState);
  const clock = yield* fromContext('clock');
  const provider = providerById(settings.provider);
  const problem = problemOf(error, { provider, model: settings.model, now: clock.now() });
  if (problem.reason !== 'providerUnreachable' || !(yield* fromContext('localNetwork'))) {
    return problem;
  }
  const withLocalNetworkCause = yield* call(loadLocalNetworkCause);
  return withLocalNetworkCause ? yield* call(withLocalNetworkCause, problem) : problem;
}

// ---- What each reply must hold for the game to go on; anything less is asked for again ----

export const has =
  (...fields: string[]) =>
  (reply: Record<string, unknown>) =>
    fields.every((field) => pickText(reply, field) !== '');

export const withOptions = (field: string) => (reply: Record<string, unknown>) =>
  has(field)(reply) && normalizeOptions(reply.options).length > 0;

/** From turn 7: an ending needs only its segment; a story that goes on needs options. */
export const segmentOrEnding = (reply: Record<string, unknown>) =>
  reply.isFinal === true || reply.isFinal === 'true'
    ? has('storySegment')(reply)
    : withOptions('storySegment')(reply);

export const stringList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];

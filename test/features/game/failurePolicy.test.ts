/**
 * The failure policy (sagas/failurePolicy.ts), in a real store running the game's watchers: a
 * flow that throws fails the turn with a problem the player can read and Try again, and every
 * other flow keeps running.
 */
import { gameActions } from '../../../src/features/game';
import { fakeConnectPage } from '../../fixtures/connectPage';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith, turnProblemOf } from '../../fixtures/games';
import { gameStore } from '../../support/gameStore';
import { scriptedModel } from '../../support/scriptedModel';

const SETTINGS = { provider: 'custom', model: 'fake-model', baseUrl: 'http://127.0.0.1:9/v1' };

let logged: unknown[][] = [];
beforeEach(() => {
  logged = [];
  jest.spyOn(console, 'error').mockImplementation((...args) => void logged.push(args));
});
afterEach(() => jest.restoreAllMocks());

test('a model client that throws a plain TypeError mid-turn: a readable failure, then Try again', async () => {
  const model = scriptedModel(gameReply);
  const complete = model.complete.bind(model);
  let broken = true;
  model.complete = (request) => {
    if (broken) throw new TypeError("Cannot read properties of undefined (reading 'choices')");
    return complete(request);
  };
  const { store, dispatched, stop } = gameStore(appStateWith(PLAYING_GAME, SETTINGS), { model });

  const failed = dispatched(gameActions.turnFailed.type);
  store.dispatch(gameActions.choiceMade({ index: 0 }));
  await failed;
  const { game } = store.getState();
  expect(game.turn.phase).toBe('failed');
  // The catalogues word 'unexpected' in both languages (game.problem.unexpected).
  expect(turnProblemOf(game)).toMatchObject({ reason: 'unexpected', model: 'fake-model' });
  // The roll stands: Try again writes the same turn, it does not roll again.
  expect(game.story.turnCount).toBe(1);
  expect(logged).toHaveLength(1);
  expect(String(logged[0]![1])).toContain('TypeError');

  broken = false;
  const offered = dispatched(gameActions.optionsOffered.type);
  store.dispatch(gameActions.turnRetryRequested());
  await offered;
  expect(store.getState().game.turn).toEqual({ phase: 'choosing' });
  expect(store.getState().game.story.turnCount).toBe(1);

  // The watchers still run: the next choice plays a turn.
  const next = dispatched(gameActions.optionsOffered.type);
  store.dispatch(gameActions.choiceMade({ index: 0 }));
  await next;
  stop();
  expect(store.getState().game.story.turnCount).toBe(2);
});

test('a rule that throws before the roll leaves the choices as they were, to be chosen again', async () => {
  let calls = 0;
  const random = () => {
    calls += 1;
    if (calls === 1) throw new TypeError('random source unavailable');
    return 0.5;
  };
  const model = scriptedModel(gameReply);
  const { store, dispatched, stop } = gameStore(appStateWith(PLAYING_GAME, SETTINGS), {
    model,
    random,
  });
  const failed = dispatched(gameActions.turnFailed.type);
  store.dispatch(gameActions.choiceMade({ index: 1 }));
  await failed;
  expect(store.getState().game.turn).toMatchObject({ phase: 'failed' });
  expect(store.getState().game.story).toEqual(appStateWith(PLAYING_GAME).game.story);
  expect(model.requests).toHaveLength(0);

  store.dispatch(gameActions.turnRetryRequested());
  expect(store.getState().game.turn).toEqual({ phase: 'choosing' });
  const offered = dispatched(gameActions.optionsOffered.type);
  store.dispatch(gameActions.choiceMade({ index: 1 }));
  await offered;
  stop();
  expect(store.getState().game.story.turnCount).toBe(1);
});

test('a key check that breaks is refused with its cause, and the next check goes on', async () => {
  const model = scriptedModel(gameReply, { listed: ['fake-model'] });
  // The page's policy, read before the provider is asked, breaks on first use.
  let pageBroken = true;
  // Then a page served from the player's own server's origin, which may call it.
  const page = fakeConnectPage('', 'http://127.0.0.1:9');
  const connectPage = new Proxy(page, {
    get(target, key, receiver) {
      if (pageBroken) throw new TypeError(`page policy unreadable (${String(key)})`);
      return Reflect.get(target, key, receiver);
    },
  });
  const { store, dispatched, stop } = gameStore(
    appStateWith({ turn: { phase: 'keyNeeded' }, apiKey: '' }, SETTINGS),
    { model, connectPage },
  );
  const refused = dispatched(gameActions.apiKeyRejected.type);
  store.dispatch(gameActions.apiKeySubmitted('sk-live'));
  await refused;
  expect(store.getState().game.keyCheck).toMatchObject({
    status: 'refused',
    error: 'keyCheckFailed',
    detail: { reason: 'unexpected' },
  });
  expect(logged).toHaveLength(1);

  // The watchers still run: the form submits again, and the key is taken.
  pageBroken = false;
  const accepted = dispatched(gameActions.apiKeyAccepted.type);
  store.dispatch(gameActions.apiKeySubmitted('sk-live'));
  await accepted;
  stop();
  expect(store.getState().game.turn).toEqual({ phase: 'home' });
});

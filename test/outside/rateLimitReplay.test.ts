/**
 * The README's "Testing sagas" example of a 429 replayed on a virtual clock, as it is written
 * there (test/outside/readmeExamples.test.ts checks that the two stay the same): the model's
 * first answer is a per-minute limit that says to wait 7 s, the turn waits it out on the saga
 * context's clock and asks again, and the run takes no wall time (DESIGN.md, "State and side
 * effects": every wait goes through the context's clock, so a test owns time).
 */
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../src/app/store';
import { gameActions, initialGameState, playTurn, type GameState } from '../../src/features/game';
import { RateLimitedError, type ModelClient } from '../../src/features/llm';
import { virtualClock } from '../support/virtualClock';

test('a 429 that says "try again in 7s" is waited out on the virtual clock, in no wall time', async () => {
  const started = Date.now();
  const option = { text: 'Knock', risk: 'low', alignment: 'moral', traitAlignment: '' } as const;
  const reply = { storySegment: 'The gate opens.', options: [option], storySummary: 'In.' };
  const limit = { kind: 'perMinute', metric: 'requests', waitMs: 7000 } as const;
  const clock = virtualClock();
  const askedAt: number[] = [];
  const model: ModelClient = {
    complete: async () => {
      askedAt.push(clock.now());
      // The provider's first answer: a 429 that says how long to wait.
      if (askedAt.length === 1) throw new RateLimitedError(429, limit, 'Try again in 7s.');
      return JSON.stringify(reply);
    },
    listModels: async () => ({ data: [] }),
    checkKey: async () => {},
  };
  const context: Record<string, unknown> = { model, random: () => 0.5, clock };
  const chosen = gameActions.choiceMade({ index: 0 });
  const playing: GameState = {
    ...initialGameState,
    apiKey: 'k',
    turn: { phase: 'choosing' },
    story: { ...initialGameState.story, options: [option] },
  };
  const state = rootReducer({ ...rootReducer(undefined, { type: 'init' }), game: playing }, chosen);

  const { storeState } = await expectSaga(playTurn, chosen)
    .withReducer(rootReducer, state)
    .provide({ getContext: (key, next) => (key in context ? context[key] : next()) })
    .put.like({ action: { type: gameActions.turnRetryScheduled.type } })
    .run(false); // the 7 s (and a little jitter) pass on the virtual clock
  expect(askedAt[1]! - askedAt[0]!).toBeGreaterThanOrEqual(7000);
  expect(storeState.game.story.storySummary).toEqual(['In.']);

  expect(Date.now() - started).toBeLessThan(3000);
});

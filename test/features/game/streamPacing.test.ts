/**
 * How the narrative of a streamed turn reaches the store (issue 21): its first words at the next
 * frame, then at most one update every STREAM_UPDATE_SPACING_MS, each carrying everything that
 * came since; the JSON around the narrative, and the options after it, ask for no frame. The
 * turn runs as its worker (expectSaga, the real root reducer) against a model that streams a
 * token every 40 ms of a virtual clock, the saga context's clock: no wall clock, no timeout.
 */
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer } from '../../../src/app/store';
import { seededRng } from '../../../src/engine/random';
import { STREAM_UPDATE_SPACING_MS, gameActions, playTurn } from '../../../src/features/game';
import type { ModelClient } from '../../../src/features/llm';
import type { Clock } from '../../../src/shared/sagaContext';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith } from '../../fixtures/games';
import { contextProviders } from '../../support/sagaReplay';

const TOKEN_MS = 40;
const FRAME_MS = 16;
/** Characters per streamed token. */
const TOKEN = 6;
/** The virtual clock's step while the model streams. */
const STEP_MS = 4;

/** Virtual time, advanced by the model as it streams; frames come when their time is due. */
function virtualClock() {
  let now = 0;
  let pending: { at: number; resolve: () => void }[] = [];
  const frameWaits: number[] = [];
  const clock: Clock & { advance(ms: number): void; frameWaits: number[] } = {
    now: () => now,
    nextFrame(notBeforeMs = 0) {
      frameWaits.push(notBeforeMs);
      return new Promise<void>((resolve) => {
        // The first frame at least notBeforeMs away.
        const at = Math.ceil((now + notBeforeMs + 1) / FRAME_MS) * FRAME_MS;
        pending.push({ at, resolve });
      });
    },
    // A turn that streams takes no other wait; one would end when its time is due.
    sleep: (ms) => new Promise<void>((resolve) => pending.push({ at: now + ms, resolve })),
    advance(ms) {
      now += ms;
      const due = pending.filter((frame) => frame.at <= now);
      pending = pending.filter((frame) => frame.at > now);
      for (const frame of due) frame.resolve();
    },
    frameWaits,
  };
  return clock;
}

/** Lets the saga run what a resolved frame started before the next token comes. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A model that streams the game's usual reply a token at a time, TOKEN_MS apart. */
function streamingModel(clock: ReturnType<typeof virtualClock>, streamed: string[]): ModelClient {
  return {
    async complete(request) {
      const reply = gameReply({ messages: [{ role: 'user', content: request.prompt }] });
      const text = JSON.stringify(reply.json);
      for (let end = TOKEN; end < text.length + TOKEN; end += TOKEN) {
        // Time passes in small steps, so that a frame comes when it is due.
        for (let step = 0; step < TOKEN_MS; step += STEP_MS) {
          clock.advance(STEP_MS);
          await settle();
        }
        streamed.push(text.slice(0, end));
        request.onText?.(text.slice(0, end));
        await settle();
      }
      clock.advance(1000);
      await settle();
      return text;
    },
    listModels: () => Promise.reject(new Error('not asked in a turn')),
    checkKey: () => Promise.reject(new Error('not asked in a turn')),
  };
}

test('the first words come at the next frame, then an update at most every spacing, with all that came since', async () => {
  const clock = virtualClock();
  const streamed: string[] = [];
  /** When each update reached the store, on the virtual clock. */
  const updatedAt: number[] = [];
  const choice = gameActions.choiceMade({ index: 0 });
  const state = appStateWith(PLAYING_GAME, {
    provider: 'custom',
    model: 'fake-model',
    baseUrl: 'http://127.0.0.1:9/v1',
  });
  const result = await expectSaga(playTurn, choice)
    .withReducer(
      (current, action) => {
        if (gameActions.segmentStreamed.match(action)) updatedAt.push(clock.now());
        return rootReducer(current, action);
      },
      rootReducer(state, choice),
    )
    .provide(
      contextProviders({
        model: streamingModel(clock, streamed),
        clock,
        random: seededRng(7),
      }),
    )
    .run(false);

  const updates = result.effects.put
    .map((effect) => effect.payload.action)
    .filter(gameActions.segmentStreamed.match)
    .map((action) => action.payload);
  const paragraph = result.storeState.game.story.previousParagraph;
  // Each update shows more of the paragraph than the one before, and the last shows it whole.
  expect(updates.length).toBeGreaterThan(2);
  updates.forEach((text, i) => {
    expect(paragraph.startsWith(text)).toBe(true);
    if (i > 0) expect(text.length).toBeGreaterThan(updates[i - 1]!.length);
  });
  expect(updates.at(-1)).toBe(paragraph);

  // The first words wait for the next frame only; each later update waits for the spacing.
  expect(clock.frameWaits[0]).toBe(0);
  const [first, ...later] = updatedAt;
  const firstWordsToken = streamed.findIndex((text) => /"storySegment":"\w/.test(text));
  expect(first! - (firstWordsToken + 1) * TOKEN_MS).toBeLessThanOrEqual(FRAME_MS + STEP_MS);
  later.forEach((at, i) => {
    expect(at - updatedAt[i]!).toBeGreaterThanOrEqual(STREAM_UPDATE_SPACING_MS);
  });
  // Several tokens to an update, and no frame asked for by the tokens after the narrative.
  const narrativeTokens = Math.ceil(JSON.stringify(paragraph).length / TOKEN);
  expect(streamed.length).toBeGreaterThan(2 * narrativeTokens);
  expect(updates.length).toBeLessThan(narrativeTokens / 2);
  expect(clock.frameWaits).toHaveLength(updates.length);
});

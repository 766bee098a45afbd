/**
 * The game's flows as they run side by side in the app: a real store running the game's saga
 * (test/support/gameStore.ts), the model a scripted client whose summary answers are held back
 * until the test releases them. What is tested here is between flows: the summary written
 * behind the options while the next turn waits for it, Cancel and Return to Home during it, a
 * double click. The test waits for the game's own events, never for a clock.
 */
import { gameActions, type GameState, type StoryEntry } from '../../../src/features/game';
import { gameReply, userPrompt, type CompletionReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith } from '../../fixtures/games';
import { gameStore } from '../../support/gameStore';
import { scriptedModel, type ScriptedAnswer } from '../../support/scriptedModel';

const SETTINGS = { provider: 'custom', model: 'fake-model', baseUrl: 'http://127.0.0.1:9/v1' };
const NEW_SUMMARY = 'Aria knocked, and a sleepy porter let her into the courtyard.';

const isSummaryRequest = (prompt: string) => prompt.startsWith('Summarise this segment');

/**
 * A model that leaves the summary out of its story replies (after any `first` answers), and
 * answers the spec's summary requests only once the test releases them.
 */
function heldSummaries(...first: CompletionReply[]) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model = scriptedModel((body): ScriptedAnswer => {
    const prompt = userPrompt(body);
    if (isSummaryRequest(prompt)) {
      const answer = first.shift() ?? gameReply(body);
      return released.then(() => answer);
    }
    const reply = first.shift() ?? gameReply(body);
    if (typeof reply.json !== 'object') return reply;
    const { storySummary: _s, ...story } = reply.json as Record<string, unknown>;
    return { ...reply, json: story };
  });
  return { model, release };
}

const paragraphs = (game: GameState) =>
  game.story.storyLog.filter((entry: StoryEntry) => entry.kind === 'paragraph');

function playing(model: ReturnType<typeof scriptedModel>) {
  return gameStore(appStateWith(PLAYING_GAME, SETTINGS), { model });
}

/** A turn played whose reply left its summary out: the summary is being written, and held. */
async function summaryBeingWritten(...first: CompletionReply[]) {
  const held = heldSummaries(...first);
  const game = playing(held.model);
  const missing = game.dispatched(gameActions.summaryMissing.type);
  game.store.dispatch(gameActions.choiceMade({ index: 1 }));
  await missing;
  return { ...game, ...held };
}

test('the options show as soon as the segment is in, while its summary is written', async () => {
  const { store, dispatched, stop, model, release } = await summaryBeingWritten();
  expect(paragraphs(store.getState().game)).toHaveLength(2);
  expect(store.getState().game).toMatchObject({
    turn: { phase: 'choosing' },
    summary: 'pending',
    story: { storySummary: ['Aria reached the gate.'] },
  });
  expect(store.getState().game.story.options.length).toBeGreaterThan(0);
  expect(model.requests.map(userPrompt).filter(isSummaryRequest)).toHaveLength(1);

  const stored = dispatched(gameActions.summaryStored.type);
  release();
  await stored;
  stop();
  expect(store.getState().game.story.storySummary).toHaveLength(2);
  expect(store.getState().game).toMatchObject({ turn: { phase: 'choosing' }, summary: 'written' });
});

test('a choice made while the summary is written waits for it; the next prompt has it', async () => {
  const { store, dispatched, stop, model, release } = await summaryBeingWritten(
    {
      json: {
        storySegment: 'A sleepy porter opens the gate and waves Aria into the courtyard.',
        options: [{ text: 'Thank the porter', risk: 'low', alignment: 'moral' }],
      },
    },
    { json: { storySummary: NEW_SUMMARY } },
  );
  store.dispatch(gameActions.choiceMade({ index: 0 }));
  // The second turn is loading, and has asked for nothing before the summary is in.
  expect(store.getState().game).toMatchObject({
    story: { turnCount: 2 },
    turn: { phase: 'writing' },
    summary: 'pending',
  });
  expect(model.requests).toHaveLength(2);

  const secondSegment = dispatched(gameActions.segmentReceived.type);
  release();
  await secondSegment;
  stop();
  const prompts = model.requests.map(userPrompt);
  expect(isSummaryRequest(prompts[1]!)).toBe(true);
  expect(prompts[2]).toContain(NEW_SUMMARY);
  expect(paragraphs(store.getState().game)).toHaveLength(3);
  expect(store.getState().game.story.storySummary.slice(0, 2)).toEqual([
    'Aria reached the gate.',
    NEW_SUMMARY,
  ]);
});

test("Cancel stops the next turn's wait for the summary, not the summary", async () => {
  const { store, dispatched, stop, release } = await summaryBeingWritten();
  store.dispatch(gameActions.choiceMade({ index: 0 }));
  store.dispatch(gameActions.waitCancelled());
  expect(store.getState().game.turn.phase).toBe('failed');

  const stored = dispatched(gameActions.summaryStored.type);
  release();
  await stored;
  expect(store.getState().game.story.storySummary).toHaveLength(2);
  const secondSegment = dispatched(gameActions.segmentReceived.type);
  store.dispatch(gameActions.turnRetryRequested());
  await secondSegment;
  stop();
  expect(paragraphs(store.getState().game)).toHaveLength(3);
  expect(store.getState().game.story.turnCount).toBe(2);
});

test('Return to Home while the summary is written stops it', async () => {
  const { store, stop, model, release } = await summaryBeingWritten();
  store.dispatch(gameActions.returnedHome());
  // The held summary request was aborted as the player left, before any answer.
  expect(model.aborted.map(userPrompt)).toEqual([expect.stringMatching(/^Summarise/)]);
  release();
  stop();
  expect(store.getState().game).toMatchObject({ turn: { phase: 'home' }, summary: 'written' });
  expect(store.getState().game.story.storySummary).toEqual(['Aria reached the gate.']);
});

test('a double click is one turn', async () => {
  const model = scriptedModel(gameReply);
  const { store, dispatched, actions, stop } = playing(model);
  const stored = dispatched(gameActions.summaryStored.type);
  store.dispatch(gameActions.choiceMade({ index: 0 }));
  store.dispatch(gameActions.choiceMade({ index: 0 }));
  // The turn is over once its segment and the summary it carries are in.
  await stored;
  stop();
  expect(store.getState().game.story.turnCount).toBe(1);
  expect(model.requests).toHaveLength(1); // one request for the turn, once
  expect(actions.filter(gameActions.outcomeRolled.match)).toHaveLength(1);
});

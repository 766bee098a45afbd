/**
 * What an outside tester can do with the public API alone: imports come only from feature
 * indexes and src/app/store.ts. The opening and a whole turn are replayed with expectSaga:
 * the worker gets the action that starts it, the real root reducer holds the state, the saga
 * context is provided (a plain-object model client, a seeded random source, a still clock),
 * and the run ends when the worker does: no timeout, no server, no wall clock.
 */
import { expectSaga } from 'redux-saga-test-plan';
import { rootReducer, type RootState } from '../../src/app/store';
import {
  gameActions,
  initialGameState,
  initialStory,
  openingGeneration,
  playTurn,
  type GameState,
  type Story,
} from '../../src/features/game';
import type { CompletionRequest, ModelClient } from '../../src/features/llm';

/** A model client that answers from a list, streaming each answer in two pieces. */
function modelAnswering(...answers: object[]) {
  const prompts: string[] = [];
  const model: ModelClient = {
    async complete(request: Omit<CompletionRequest, 'fetch'>) {
      prompts.push(request.prompt);
      const text = JSON.stringify(answers.shift());
      request.onText?.(text.slice(0, text.length / 2));
      request.onText?.(text);
      return text;
    },
    listModels: async () => ({ data: [] }),
    checkKey: async () => {},
  };
  return { model, prompts };
}

/** The saga context as a tester provides it. */
function context(model: ModelClient) {
  const values: Record<string, unknown> = {
    model,
    random: () => 0.5,
    clock: { now: () => 0, nextFrame: async () => {}, sleep: async () => {} },
    storage: null,
    connectPage: null,
  };
  return {
    getContext: (key: string, next: () => unknown) => (key in values ? values[key] : next()),
  };
}

/** The app's state with the given game, after `action` was reduced (as the store does). */
function stateWith(
  turn: GameState['turn'],
  story: Partial<Story>,
  action: { type: string },
): RootState {
  const initial = rootReducer(undefined, { type: 'test/init' });
  const game = {
    ...initialGameState,
    apiKey: 'sk-test',
    turn,
    story: { ...initialStory, ...story },
  };
  return rootReducer({ ...initial, game }, action);
}

const OPTIONS = [
  { text: 'Follow the lantern light', risk: 'low', alignment: 'moral', traitAlignment: 'kind' },
  { text: 'Pick the lock', risk: 'high', alignment: 'immoral', traitAlignment: 'reckless' },
];

test('the opening: profile, opening scene with its summary, then the story is under way', async () => {
  const { model, prompts } = modelAnswering(
    { characterBio: 'A cartographer.', characterGender: 'female', characterQuirks: ['curious'] },
    { storyStart: 'Rain on the harbour.', options: OPTIONS, newStorySummary: 'Aria arrived.' },
  );
  const named = gameActions.characterNamed('Aria Vale');
  const start: Partial<Story> = { chosenGenre: 'High Fantasy' };

  const { storeState } = await expectSaga(openingGeneration, named)
    .withReducer(rootReducer, stateWith({ phase: 'naming' }, start, named))
    .provide(context(model))
    .put.like({ action: { type: gameActions.characterProfileReceived.type } })
    .put.like({ action: { type: gameActions.segmentStreamed.type } })
    .put.like({ action: { type: gameActions.openingReceived.type } })
    .put(gameActions.openingSummaryReceived('Aria arrived.'))
    .run(false);

  expect(prompts).toHaveLength(2);
  expect(storeState.game).toMatchObject({
    turn: { phase: 'choosing' },
    story: {
      characterGender: 'female',
      previousParagraph: 'Rain on the harbour.',
      storySummary: ['Aria arrived.'],
    },
  });
});

test('a turn: choice made, outcome rolled, scenario picked, segment streamed and received, options offered, summary stored', async () => {
  const { model, prompts } = modelAnswering({
    storySegment: 'The lantern leads Aria to a hidden stair.',
    options: OPTIONS,
    storySummary: 'Aria found a hidden stair.',
  });
  const chosen = gameActions.choiceMade({ index: 0 });
  const playing: Partial<Story> = {
    chosenGenre: 'High Fantasy',
    chosenCharacter: 'Aria Vale',
    storyLog: [{ kind: 'paragraph', text: 'Rain on the harbour.' }],
    previousParagraph: 'Rain on the harbour.',
    storySummary: ['Aria arrived.'],
    options: OPTIONS as Story['options'],
  };

  const result = await expectSaga(playTurn, chosen)
    .withReducer(rootReducer, stateWith({ phase: 'choosing' }, playing, chosen))
    .provide(context(model))
    .run(false);

  const types = result.effects.put.map((effect) => effect.payload.action.type);
  expect(types).toEqual([
    gameActions.outcomeRolled.type,
    gameActions.scenarioPicked.type,
    gameActions.segmentStreamed.type,
    gameActions.tokensCounted.type,
    gameActions.segmentReceived.type,
    gameActions.optionsOffered.type,
    gameActions.summaryStored.type,
  ]);
  expect(prompts[0]).toContain('Follow the lantern light');
  expect(result.storeState.game).toMatchObject({
    turn: { phase: 'choosing' },
    story: {
      turnCount: 1,
      previousParagraph: 'The lantern leads Aria to a hidden stair.',
      storySummary: ['Aria arrived.', 'Aria found a hidden stair.'],
    },
  });
});

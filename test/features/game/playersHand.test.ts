/**
 * Issue 22, the player's hand on the story: a turn written again (never a new roll), Stop, the
 * edits, the story's memory corrected and the pinned note, each run as the game runs it: the
 * worker from its action over the real root reducer, the model a scripted client.
 */
import { rootReducer, type RootState } from '../../../src/app/store';
import {
  canChoose,
  canRewrite,
  canStop,
  gameActions,
  openingGeneration,
  playTurn,
  restoreGame,
  retryTurn,
  selectResumableGame,
  summaryFallback,
  type GameState,
  type ResolvedChoice,
  type StoryEntry,
} from '../../../src/features/game';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith } from '../../fixtures/games';
import { play, prompts, putTypes } from '../../support/gameWorkers';
import { scriptedModel } from '../../support/scriptedModel';

const FAILED_CHOICE: ResolvedChoice = {
  turn: 2,
  option: {
    text: 'Climb the gate',
    risk: 'high',
    alignment: 'neutral',
    traitAlignment: 'reckless',
  },
  freeText: false,
  outcome: 'failure',
  scenarioType: 'betrayal',
  outcomesSoFar: ['success', 'failure'],
};

/** Turn 2 played and failed: its paragraph in, its summary stored, its options offered. */
const AFTER_A_FAILURE: Partial<GameState> = {
  ...PLAYING_GAME,
  storyLog: [
    { kind: 'paragraph', text: 'The road ends at a locked gate.' },
    { kind: 'choice', text: 'Knock politely', outcome: null, freeText: false },
    { kind: 'paragraph', text: 'Nobody answers, but the bolt slides back by itself.' },
    { kind: 'choice', text: 'Climb the gate', outcome: 'failure', freeText: false },
    { kind: 'paragraph', text: 'You slip from the spikes and land hard in the mud.' },
  ],
  previousParagraph: 'You slip from the spikes and land hard in the mud.',
  storySummary: ['Aria reached the gate.', 'The bolt slid back.', 'Aria fell from the gate.'],
  turnCount: 2,
  outcomes: ['success', 'failure'],
  moralChoices: ['moral', 'neutral'],
  scenarioHistory: ['standard', 'betrayal'],
  lastChoice: FAILED_CHOICE,
};

const stateWith = (game: Partial<GameState>): RootState => appStateWith(game);
const reduce = (state: RootState, ...actions: Parameters<typeof rootReducer>[1][]) =>
  actions.reduce(rootReducer, state);

describe('write it again', () => {
  test('the same choice, outcome and scenario are asked for: a rewritten failure stays a failure', async () => {
    const before = stateWith(AFTER_A_FAILURE);
    const model = scriptedModel(gameReply);
    const result = await play(retryTurn, gameActions.rewriteRequested(), {
      game: AFTER_A_FAILURE,
      model,
    }).run(false);
    // The fake model echoes "success"; the game's own roll is what stands.
    const [prompt] = prompts(model);
    expect(prompt).toContain('chose: "Climb the gate"');
    expect(prompt).toContain('The dice decided: "failure"');
    expect(prompt).toContain('"betrayal"');
    // Told the story as it stood before the replaced paragraph.
    expect(prompt).toContain('Last scene: Nobody answers, but the bolt slides back by itself.');
    expect(prompt).not.toContain('Aria fell from the gate.');

    const game = result.storeState.game;
    expect(game.outcomes).toEqual(['success', 'failure']);
    expect(game.storyLog).toHaveLength(5);
    expect(game.storyLog[3]).toEqual(expect.objectContaining({ outcome: 'failure' }));
    expect(game.storyLog[4]!.text).toMatch(/^Rain hammers/);
    expect(game.storySummary).toEqual([
      'Aria reached the gate.',
      'The bolt slid back.',
      'A stranger handed the hero a sealed letter as alarm bells rang over the harbour.',
    ]);
    expect(game).toMatchObject({ rewrites: 1, turnRewrites: 1, turnCount: 2, isLoading: false });
    expect(result.storeState.playerStats).toEqual(before.playerStats);
    expect(putTypes(result)).not.toContain(gameActions.outcomeRolled.type);
  });

  test('three rewrites a turn and no more; the next turn has its own three, the game counts all', () => {
    const paragraph = (text: string) => [
      gameActions.segmentReceived({ text, isFinal: false }),
      gameActions.optionsOffered(PLAYING_GAME.options!),
    ];
    let state = stateWith(AFTER_A_FAILURE);
    for (const take of ['second', 'third', 'fourth']) {
      expect(canRewrite(state.game)).toBe(true);
      state = reduce(state, gameActions.rewriteRequested(), ...paragraph(`The ${take} take.`));
    }
    expect(state.game).toMatchObject({ rewrites: 3, turnRewrites: 3 });
    expect(canRewrite(state.game)).toBe(false);
    const refused = reduce(state, gameActions.rewriteRequested());
    expect(refused.game).toEqual(state.game);

    state = reduce(
      state,
      gameActions.outcomeRolled({ ...FAILED_CHOICE, turn: 3, outcome: 'success' }),
      gameActions.scenarioPicked({ ...FAILED_CHOICE, turn: 3, outcome: 'success' }),
      ...paragraph('Turn three.'),
    );
    expect(state.game).toMatchObject({ rewrites: 3, turnRewrites: 0 });
    expect(canRewrite(state.game)).toBe(true);
  });

  test('the opening, a loading turn and a failed turn cannot be written again', () => {
    expect(canRewrite(stateWith(PLAYING_GAME).game)).toBe(false);
    expect(canRewrite(stateWith({ ...AFTER_A_FAILURE, isLoading: true }).game)).toBe(false);
    expect(canRewrite(stateWith({ ...AFTER_A_FAILURE, error: 'turnFailed' }).game)).toBe(false);
  });
});

describe('stop', () => {
  test('ends the request at once; the partial text goes, the choice and its roll stand', async () => {
    const model = scriptedModel([new Promise<never>(() => {})]);
    const stopped = await play(playTurn, gameActions.choiceMade({ index: 0 }), {
      game: PLAYING_GAME,
      model,
    })
      .dispatch(gameActions.writingStopped())
      .run(false);
    expect(model.aborted).toEqual(model.requests);
    const game = stopped.storeState.game;
    expect(game).toMatchObject({ turnStopped: true, isLoading: false, streamingText: '' });
    expect(game.storyLog.at(-1)).toEqual(expect.objectContaining({ kind: 'choice' }));
    const roll = game.lastChoice!;
    expect(canChoose(game)).toBe(false);
    expect(canRewrite(game)).toBe(true);

    // Write it again: the same roll, the segment in, counted as a rewrite.
    const again = gameActions.rewriteRequested();
    const model2 = scriptedModel(gameReply);
    const { storeState } = await play(retryTurn, again, {
      game: game,
      model: model2,
    }).run(false);
    expect(prompts(model2)[0]).toContain(`The dice decided: "${roll.outcome}"`);
    expect(storeState.game).toMatchObject({ turnStopped: false, rewrites: 1, turnCount: 1 });
    expect(storeState.game.outcomes).toEqual([roll.outcome]);
    expect(storeState.game.storyLog.map((entry: StoryEntry) => entry.kind)).toEqual([
      'paragraph',
      'choice',
      'paragraph',
    ]);
  });

  test('is not offered once the turn has used its three rewrites', () => {
    const writing = {
      ...AFTER_A_FAILURE,
      isLoading: true,
      storyLog: AFTER_A_FAILURE.storyLog!.slice(0, 4),
    };
    expect(canStop(stateWith(writing).game)).toBe(true);
    expect(canStop(stateWith({ ...writing, turnRewrites: 3 }).game)).toBe(false);
  });

  test('during the opening goes back to the name, with the genre, portrait and name kept', async () => {
    const model = scriptedModel([new Promise<never>(() => {})]);
    const naming: Partial<GameState> = {
      stage: 'characterSelection',
      chosenGenre: 'Harbour intrigue',
      chosenImage: 7,
    };
    const { storeState } = await play(openingGeneration, gameActions.characterNamed('Aria Vale'), {
      game: naming,
      model,
    })
      .dispatch(gameActions.writingStopped())
      .run(false);
    expect(model.aborted).toHaveLength(1);
    expect(storeState.game).toMatchObject({
      stage: 'characterSelection',
      chosenGenre: 'Harbour intrigue',
      chosenImage: 7,
      chosenCharacter: 'Aria Vale',
      isLoading: false,
      storyLog: [],
    });
  });
});

describe('stop and rewrite, with the summary behind the options', () => {
  /** Turn 3 stopped while the game still waited for turn 2's summary (its reply had none). */
  const STOPPED_WAITING: Partial<GameState> = {
    ...AFTER_A_FAILURE,
    storyLog: [
      ...AFTER_A_FAILURE.storyLog!,
      { kind: 'choice', text: 'Knock politely', outcome: 'failure', freeText: false },
    ],
    storySummary: ['Aria reached the gate.', 'The bolt slid back.'],
    summaryPending: true,
    turnCount: 3,
    outcomes: ['success', 'failure', 'failure'],
    turnStopped: true,
    lastChoice: { ...FAILED_CHOICE, turn: 3, option: PLAYING_GAME.options![1]! },
  };
  const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));

  test("writing a stopped turn again keeps the previous paragraph's summary coming", async () => {
    const model = scriptedModel([later({ json: { storySummary: 'Aria fell hard.' } })]);
    const { storeState } = await play(summaryFallback, gameActions.summaryMissing(), {
      game: STOPPED_WAITING,
      model,
    })
      .dispatch(gameActions.rewriteRequested())
      .run(false);
    // Turn 2's paragraph, told with turn 2's choice, not the stopped turn's.
    expect(prompts(model)[0]).toContain('chose: Climb the gate');
    expect(prompts(model)[0]).toContain('Segment: You slip from the spikes');
    expect(model.aborted).toEqual([]);
    expect(storeState.game.storySummary).toEqual([
      'Aria reached the gate.',
      'The bolt slid back.',
      'Aria fell hard.',
    ]);
    expect(storeState.game).toMatchObject({ summaryPending: false, isLoading: true, rewrites: 1 });
  });

  test('writing a finished paragraph again drops the summary being written for it', async () => {
    const model = scriptedModel([later({ json: { storySummary: 'Stale.' } })]);
    const { storeState } = await play(summaryFallback, gameActions.summaryMissing(), {
      game: {
        ...AFTER_A_FAILURE,
        storySummary: AFTER_A_FAILURE.storySummary!.slice(0, 2),
        summaryPending: true,
      },
      model,
    })
      .dispatch(gameActions.rewriteRequested())
      .run(false);
    expect(model.aborted).toHaveLength(1);
    // Turn 1's summary stays: only the replaced paragraph's was missing.
    expect(storeState.game.storySummary).toEqual(['Aria reached the gate.', 'The bolt slid back.']);
  });

  test('a Stop pressed while the ending is written stops nothing', async () => {
    // The final segment is in; its recap failed once and is being written again.
    const ending: Partial<GameState> = {
      ...AFTER_A_FAILURE,
      turnCount: 7,
      isFinal: true,
      error: 'turnFailed',
      lastChoice: { ...FAILED_CHOICE, turn: 7 },
    };
    const model = scriptedModel((body) => later(gameReply(body)));
    const { storeState } = await play(retryTurn, gameActions.turnRetryRequested(), {
      game: ending,
      model,
    })
      .dispatch(gameActions.writingStopped())
      .run(false);
    expect(model.aborted).toEqual([]);
    expect(storeState.game).toMatchObject({ stage: 'endingScreen', turnStopped: false });
    expect(storeState.game.recap).not.toBeNull();
  });
});

describe('edits', () => {
  test('an edited paragraph is marked, its summary is written again from it, the next turn reads it', async () => {
    const edited = gameActions.paragraphEdited('  You land softly in a haystack.  ');
    const model = scriptedModel([{ json: { storySummary: 'Aria fell into hay, unhurt.' } }]);
    const summarized = await play(summaryFallback, edited, {
      game: AFTER_A_FAILURE,
      model,
    }).run(false);
    expect(prompts(model)[0]).toContain('Segment: You land softly in a haystack.');
    expect(prompts(model)[0]).toContain('chose: Climb the gate');
    const game = summarized.storeState.game;
    expect(game.storyLog.at(-1)).toEqual({
      kind: 'paragraph',
      text: 'You land softly in a haystack.',
      edited: true,
    });
    expect(game.storySummary.at(-1)).toBe('Aria fell into hay, unhurt.');
    expect(game.storySummary).toHaveLength(3);

    const next = scriptedModel(gameReply);
    await play(playTurn, gameActions.choiceMade({ index: 1 }), { game, model: next }).run(false);
    expect(prompts(next)[0]).toContain('Last scene: You land softly in a haystack.');
    expect(prompts(next)[0]).toContain('- Aria fell into hay, unhurt.');
  });

  test("the player's typed action can be edited, and a rewrite asks for it as edited", async () => {
    const typed: Partial<GameState> = {
      ...AFTER_A_FAILURE,
      storyLog: [
        ...AFTER_A_FAILURE.storyLog!.slice(0, 3),
        { kind: 'choice', text: 'Sing to the gate', outcome: 'failure', freeText: true },
        AFTER_A_FAILURE.storyLog![4]!,
      ],
      lastChoice: {
        ...FAILED_CHOICE,
        freeText: true,
        option: {
          text: 'Sing to the gate',
          risk: 'medium',
          alignment: 'neutral',
          traitAlignment: '',
        },
      },
    };
    const state = reduce(stateWith(typed), gameActions.choiceEdited('Whistle at the gate'));
    expect(state.game.storyLog[3]).toEqual(
      expect.objectContaining({ text: 'Whistle at the gate', edited: true, outcome: 'failure' }),
    );
    expect(state.game.summaryPending).toBe(true);

    const model = scriptedModel(gameReply);
    await play(retryTurn, gameActions.rewriteRequested(), { game: state.game, model }).run(false);
    expect(prompts(model)[0]).toContain('chose: "Whistle at the gate"');
    expect(prompts(model)[0]).toContain('The dice decided: "failure"');
  });

  test("an option the game offered is not the player's to edit, nor an empty or overlong text", () => {
    const state = stateWith(AFTER_A_FAILURE);
    expect(reduce(state, gameActions.choiceEdited('Fly over')).game).toEqual(state.game);
    expect(reduce(state, gameActions.paragraphEdited('   ')).game).toEqual(state.game);
    // Under 20 characters a story can no longer be saved (SPEC.md section 9).
    expect(reduce(state, gameActions.paragraphEdited('You fall.')).game).toEqual(state.game);
    expect(reduce(state, gameActions.paragraphEdited('x'.repeat(4001))).game).toEqual(state.game);
  });
});

describe("the story's memory and the pinned note", () => {
  test('a corrected entry and the note go into the next prompt', async () => {
    const state = reduce(
      stateWith(AFTER_A_FAILURE),
      gameActions.memoryCorrected({ index: 1, text: 'The bolt slid back; a guard watched.' }),
      gameActions.storyNotePinned('Aria is afraid of heights.'),
    );
    const model = scriptedModel(gameReply);
    await play(playTurn, gameActions.choiceMade({ index: 1 }), { game: state.game, model }).run(
      false,
    );
    expect(prompts(model)[0]).toContain('- The bolt slid back; a guard watched.');
    expect(prompts(model)[0]).toContain(
      'pinned note (hold the story to it, but it never changes a dice result): Aria is afraid of heights.',
    );
  });

  test('a note over 500 characters or an entry out of range is refused', () => {
    const state = stateWith(AFTER_A_FAILURE);
    expect(reduce(state, gameActions.storyNotePinned('n'.repeat(501))).game.storyNote).toBe('');
    expect(
      reduce(state, gameActions.memoryCorrected({ index: 3, text: 'Never happened.' })).game,
    ).toEqual(state.game);
  });
});

test('a reload keeps the rewrites, the edits, the corrected memory, the note and a stopped turn', () => {
  const stopped = reduce(
    stateWith({
      ...AFTER_A_FAILURE,
      isLoading: true,
      storyLog: AFTER_A_FAILURE.storyLog!.slice(0, 4),
    }),
    gameActions.writingStopped(),
    gameActions.memoryCorrected({ index: 0, text: 'Aria reached the old gate.' }),
    gameActions.storyNotePinned('Keep the tone grim.'),
  );
  const saved = JSON.parse(JSON.stringify(selectResumableGame(stopped)));
  const restored = restoreGame({ ...saved, rewrites: 4, turnRewrites: 2 })!;
  const resumed = reduce(
    stateWith({ stage: 'loadOrCreate' }),
    gameActions.savedStoryResumed(restored),
  );
  expect(resumed.game).toMatchObject({
    stage: 'playing',
    turnStopped: true,
    rewrites: 4,
    turnRewrites: 2,
    storyNote: 'Keep the tone grim.',
    lastChoice: FAILED_CHOICE,
  });
  expect(resumed.game.storySummary[0]).toBe('Aria reached the old gate.');
  expect(canRewrite(resumed.game)).toBe(true);
  expect(restoreGame({ ...saved, lastChoice: { ...FAILED_CHOICE, outcome: 'jackpot' } })).toEqual(
    expect.objectContaining({ lastChoice: null, turnStopped: false }),
  );
});

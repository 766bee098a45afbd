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
  isStoryProblem,
  openingGeneration,
  parseStory,
  phaseOf,
  playTurn,
  retryTurn,
  selectGameStage,
  selectStory,
  summaryFallback,
  type ResolvedChoice,
  type Story,
  type StoryEntry,
  type Turn,
} from '../../../src/features/game';
import { gameReply } from '../../fixtures/fakeModelServer';
import { PLAYING_GAME, appStateWith, playingWith, type GameAt } from '../../fixtures/games';
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
const AFTER_A_FAILURE = playingWith({
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
});

/** A segment being written, nothing of it in yet. */
const WRITING: Turn = { phase: 'writing', streamed: '', thinking: false, wait: null };
const FAILED: Turn = { phase: 'failed', problem: null };

/** `game` with these changes to its story, in `turn` (its own unless told). */
const withStory = (game: GameAt, story: Partial<Story>, turn = game.turn): GameAt => ({
  ...game,
  turn,
  story: { ...game.story, ...story },
});

const stateWith = (game: GameAt): RootState => appStateWith(game);
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

    const { story } = result.storeState.game;
    expect(story.outcomes).toEqual(['success', 'failure']);
    expect(story.storyLog).toHaveLength(5);
    expect(story.storyLog[3]).toEqual(expect.objectContaining({ outcome: 'failure' }));
    expect(story.storyLog[4]!.text).toMatch(/^Rain hammers/);
    expect(story.storySummary).toEqual([
      'Aria reached the gate.',
      'The bolt slid back.',
      'A stranger handed the hero a sealed letter as alarm bells rang over the harbour.',
    ]);
    expect(story).toMatchObject({ rewrites: 1, turnRewrites: 1, turnCount: 2 });
    // Written: nothing is loading, the new options are the player's.
    expect(result.storeState.game.turn).toEqual({ phase: 'choosing' });
    expect(story.playerStats).toEqual(before.game.story.playerStats);
    expect(putTypes(result)).not.toContain(gameActions.outcomeRolled.type);
  });

  test('three rewrites a turn and no more; the next turn has its own three, the game counts all', () => {
    const paragraph = (text: string) => [
      gameActions.segmentReceived({ text, isFinal: false }),
      gameActions.optionsOffered(PLAYING_GAME.story!.options!),
    ];
    let state = stateWith(AFTER_A_FAILURE);
    for (const take of ['second', 'third', 'fourth']) {
      expect(canRewrite(state.game)).toBe(true);
      state = reduce(state, gameActions.rewriteRequested(), ...paragraph(`The ${take} take.`));
    }
    expect(state.game.story).toMatchObject({ rewrites: 3, turnRewrites: 3 });
    expect(canRewrite(state.game)).toBe(false);
    const refused = reduce(state, gameActions.rewriteRequested());
    expect(refused.game).toEqual(state.game);

    state = reduce(
      state,
      gameActions.outcomeRolled({ ...FAILED_CHOICE, turn: 3, outcome: 'success' }),
      gameActions.scenarioPicked({ ...FAILED_CHOICE, turn: 3, outcome: 'success' }),
      ...paragraph('Turn three.'),
    );
    expect(state.game.story).toMatchObject({ rewrites: 3, turnRewrites: 0 });
    expect(canRewrite(state.game)).toBe(true);
  });

  test('the opening, a loading turn and a failed turn cannot be written again', () => {
    expect(canRewrite(stateWith(PLAYING_GAME).game)).toBe(false);
    expect(canRewrite(stateWith({ ...AFTER_A_FAILURE, turn: WRITING }).game)).toBe(false);
    expect(canRewrite(stateWith({ ...AFTER_A_FAILURE, turn: FAILED }).game)).toBe(false);
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
    // Stopped: nothing loading, no streamed text kept.
    expect(game.turn).toEqual({ phase: 'stopped' });
    expect(game.story.storyLog.at(-1)).toEqual(expect.objectContaining({ kind: 'choice' }));
    const roll = game.story.lastChoice!;
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
    // Written again: no longer stopped, its options offered.
    expect(storeState.game.turn).toEqual({ phase: 'choosing' });
    expect(storeState.game.story).toMatchObject({ rewrites: 1, turnCount: 1 });
    expect(storeState.game.story.outcomes).toEqual([roll.outcome]);
    expect(storeState.game.story.storyLog.map((entry: StoryEntry) => entry.kind)).toEqual([
      'paragraph',
      'choice',
      'paragraph',
    ]);
  });

  test('is not offered once the turn has used its three rewrites', () => {
    const writing = withStory(
      AFTER_A_FAILURE,
      { storyLog: AFTER_A_FAILURE.story.storyLog!.slice(0, 4) },
      WRITING,
    );
    expect(canStop(stateWith(writing).game)).toBe(true);
    expect(canStop(stateWith(withStory(writing, { turnRewrites: 3 })).game)).toBe(false);
  });

  test('during the opening goes back to the name, with the genre, portrait and name kept', async () => {
    const model = scriptedModel([new Promise<never>(() => {})]);
    const naming: GameAt = {
      turn: { phase: 'naming' },
      story: { chosenGenre: 'Harbour intrigue', chosenImage: 7 },
    };
    const { storeState } = await play(openingGeneration, gameActions.characterNamed('Aria Vale'), {
      game: naming,
      model,
    })
      .dispatch(gameActions.writingStopped())
      .run(false);
    expect(model.aborted).toHaveLength(1);
    // Back at the name (characterSelection), nothing loading.
    expect(storeState.game.turn).toEqual({ phase: 'naming' });
    expect(selectGameStage(storeState)).toBe('characterSelection');
    expect(storeState.game.story).toMatchObject({
      chosenGenre: 'Harbour intrigue',
      chosenImage: 7,
      chosenCharacter: 'Aria Vale',
      storyLog: [],
    });
  });
});

describe('stop and rewrite, with the summary behind the options', () => {
  /** Turn 3 stopped while the game still waited for turn 2's summary (its reply had none). */
  const STOPPED_WAITING: GameAt = {
    ...withStory(
      AFTER_A_FAILURE,
      {
        storyLog: [
          ...AFTER_A_FAILURE.story.storyLog!,
          { kind: 'choice', text: 'Knock politely', outcome: 'failure', freeText: false },
        ],
        storySummary: ['Aria reached the gate.', 'The bolt slid back.'],
        turnCount: 3,
        outcomes: ['success', 'failure', 'failure'],
        lastChoice: { ...FAILED_CHOICE, turn: 3, option: PLAYING_GAME.story!.options![1]! },
      },
      { phase: 'stopped' },
    ),
    summary: 'pending',
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
    expect(storeState.game.story.storySummary).toEqual([
      'Aria reached the gate.',
      'The bolt slid back.',
      'Aria fell hard.',
    ]);
    expect(storeState.game.summary).toBe('written');
    expect(storeState.game.turn).toMatchObject({ phase: 'writing' });
    expect(storeState.game.story.rewrites).toBe(1);
  });

  test('writing a finished paragraph again drops the summary being written for it', async () => {
    const model = scriptedModel([later({ json: { storySummary: 'Stale.' } })]);
    const { storeState } = await play(summaryFallback, gameActions.summaryMissing(), {
      game: {
        ...withStory(AFTER_A_FAILURE, {
          storySummary: AFTER_A_FAILURE.story.storySummary!.slice(0, 2),
        }),
        summary: 'pending',
      },
      model,
    })
      .dispatch(gameActions.rewriteRequested())
      .run(false);
    expect(model.aborted).toHaveLength(1);
    // Turn 1's summary stays: only the replaced paragraph's was missing.
    expect(storeState.game.story.storySummary).toEqual([
      'Aria reached the gate.',
      'The bolt slid back.',
    ]);
  });

  test('a Stop pressed while the ending is written stops nothing', async () => {
    // The final segment is in; its recap failed once and is being written again.
    const ending = withStory(
      AFTER_A_FAILURE,
      { turnCount: 7, isFinal: true, lastChoice: { ...FAILED_CHOICE, turn: 7 } },
      FAILED,
    );
    const model = scriptedModel((body) => later(gameReply(body)));
    const { storeState } = await play(retryTurn, gameActions.turnRetryRequested(), {
      game: ending,
      model,
    })
      .dispatch(gameActions.writingStopped())
      .run(false);
    expect(model.aborted).toEqual([]);
    // Ended, never stopped.
    expect(storeState.game.turn).toEqual({ phase: 'ended' });
    expect(selectGameStage(storeState)).toBe('endingScreen');
    expect(storeState.game.story.recap).not.toBeNull();
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
    expect(game.story.storyLog.at(-1)).toEqual({
      kind: 'paragraph',
      text: 'You land softly in a haystack.',
      edited: true,
    });
    expect(game.story.storySummary.at(-1)).toBe('Aria fell into hay, unhurt.');
    expect(game.story.storySummary).toHaveLength(3);

    const next = scriptedModel(gameReply);
    await play(playTurn, gameActions.choiceMade({ index: 1 }), { game, model: next }).run(false);
    expect(prompts(next)[0]).toContain('Last scene: You land softly in a haystack.');
    expect(prompts(next)[0]).toContain('- Aria fell into hay, unhurt.');
  });

  test("the player's typed action can be edited, and a rewrite asks for it as edited", async () => {
    const typed = withStory(AFTER_A_FAILURE, {
      storyLog: [
        ...AFTER_A_FAILURE.story.storyLog!.slice(0, 3),
        { kind: 'choice', text: 'Sing to the gate', outcome: 'failure', freeText: true },
        AFTER_A_FAILURE.story.storyLog![4]!,
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
    });
    const state = reduce(stateWith(typed), gameActions.choiceEdited('Whistle at the gate'));
    expect(state.game.story.storyLog[3]).toEqual(
      expect.objectContaining({ text: 'Whistle at the gate', edited: true, outcome: 'failure' }),
    );
    expect(state.game.summary).toBe('pending');

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
    expect(reduce(state, gameActions.storyNotePinned('n'.repeat(501))).game.story.storyNote).toBe(
      '',
    );
    expect(
      reduce(state, gameActions.memoryCorrected({ index: 3, text: 'Never happened.' })).game,
    ).toEqual(state.game);
  });
});

test('a reload keeps the rewrites, the edits, the corrected memory, the note and a stopped turn', () => {
  const stopped = reduce(
    stateWith(
      withStory(
        AFTER_A_FAILURE,
        { storyLog: AFTER_A_FAILURE.story.storyLog!.slice(0, 4) },
        WRITING,
      ),
    ),
    gameActions.writingStopped(),
    gameActions.memoryCorrected({ index: 0, text: 'Aria reached the old gate.' }),
    gameActions.storyNotePinned('Keep the tone grim.'),
  );
  const saved = JSON.parse(JSON.stringify(selectStory(stopped)));
  const restored = parseStory({ ...saved, rewrites: 4, turnRewrites: 2 });
  if (isStoryProblem(restored)) throw new Error(`not a story: ${restored.reason}`);
  const resumed = reduce(
    stateWith({ turn: { phase: 'home' } }),
    gameActions.savedStoryResumed(restored),
  );
  expect(selectGameStage(resumed)).toBe('playing');
  expect(resumed.game.turn).toEqual({ phase: 'stopped' });
  expect(resumed.game.story).toMatchObject({
    rewrites: 4,
    turnRewrites: 2,
    storyNote: 'Keep the tone grim.',
    lastChoice: FAILED_CHOICE,
  });
  expect(resumed.game.story.storySummary[0]).toBe('Aria reached the old gate.');
  expect(canRewrite(resumed.game)).toBe(true);
  // A roll that is not the game's is dropped, and the turn does not come back stopped.
  const tampered = parseStory({ ...saved, lastChoice: { ...FAILED_CHOICE, outcome: 'jackpot' } });
  expect(tampered).toEqual(expect.objectContaining({ lastChoice: null }));
  expect(phaseOf(tampered as Story).phase).not.toBe('stopped');
});

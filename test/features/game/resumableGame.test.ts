import { makeStore } from '../../../src/app/store';
import {
  gameActions,
  initialGameState,
  initialPlayerStatsState,
  isResumable,
  restoreGame,
  selectResumableGame,
  type GameState,
  type Recap,
} from '../../../src/features/game';

const PARAGRAPH = 'The road ends at a locked gate under a sky of iron.';
const recap: Recap = {
  wrapUpParagraph: 'And so the roads were mapped.',
  bigMoment: 'The gate',
  frequentActivity: 'Climbing',
  characterTraitHighlight: 'Stubborn',
  themeExploration: 'Home',
  overallScore: 80,
  endingType: 'Heroic Victory',
};
const playing: GameState = {
  ...initialGameState,
  stage: 'playing',
  apiKey: 'sk-old',
  chosenGenre: 'Fantasy',
  chosenImage: 7,
  chosenCharacter: 'Aria Vale',
  characterBio: 'A cartographer.',
  storyLog: [
    { kind: 'paragraph', text: PARAGRAPH },
    { kind: 'choice', text: 'Climb', outcome: null, freeText: true },
    { kind: 'paragraph', text: 'Over the gate.' },
  ],
  previousParagraph: 'Over the gate.',
  options: [{ text: 'Run', risk: 'high', alignment: 'neutral', traitAlignment: '' }],
  storySummary: ['Aria climbed.'],
  turnCount: 1,
  scenarioHistory: ['standard'],
  moralChoices: ['neutral'],
  outcomes: ['success'],
};

describe('isResumable', () => {
  test.each<[string, Partial<GameState>, boolean]>([
    ['a complete turn', {}, true],
    ['a turn being written', { isLoading: true }, false],
    ['a failed turn', { error: 'turnFailed' }, false],
    ['the story start, before its summary', { stage: 'loading', isLoading: true }, true],
    ['the opening before any text', { stage: 'loading', storyLog: [], options: [] }, false],
    ['the ending with its recap', { stage: 'endingScreen', isFinal: true, recap }, true],
    ['the ending before its recap', { stage: 'endingScreen', isFinal: true }, false],
    ['the load-or-create screen', { stage: 'loadOrCreate' }, false],
  ])('%s: %s', (_name, game, expected) => {
    expect(isResumable({ ...playing, ...game })).toBe(expected);
  });
});

describe('restoreGame', () => {
  const snapshot = selectResumableGame({ game: playing, playerStats: initialPlayerStatsState });

  test('gives back exactly what was taken, without the session fields', () => {
    const restored = restoreGame(JSON.parse(JSON.stringify(snapshot)));
    expect(restored).toEqual(snapshot);
    expect(restored).not.toHaveProperty('apiKey');
    expect(restored).not.toHaveProperty('stage');
  });

  test('malformed fields fall back to their start values; entries of the wrong shape are dropped', () => {
    const restored = restoreGame({
      ...snapshot,
      chosenImage: 99,
      characterImage: '/characters/12.png',
      turnCount: -3,
      storyLog: [{ kind: 'paragraph', text: 'kept' }, { kind: 'poem', text: 'dropped' }, 7],
      options: [{ text: 'no risk' }, snapshot.options[0]],
      outcomes: ['success', 'glorious'],
      playerStats: { moralScore: 'high', riskScore: 12 },
      recap: { wrapUpParagraph: 'half a recap' },
    });
    expect(restored).toEqual(
      expect.objectContaining({
        chosenImage: 12,
        turnCount: 0,
        storyLog: [{ kind: 'paragraph', text: 'kept' }],
        options: [snapshot.options[0]],
        outcomes: ['success'],
        recap: null,
      }),
    );
    expect(restored?.playerStats).toEqual({
      ...initialPlayerStatsState.playerStats,
      riskScore: 12,
    });
  });

  test('an old record with only its last paragraph gets a story log of it; one without is refused', () => {
    expect(restoreGame({ previousParagraph: PARAGRAPH })?.storyLog).toEqual([
      { kind: 'paragraph', text: PARAGRAPH },
    ]);
    expect(restoreGame({ previousParagraph: '  ' })).toBeNull();
    expect(restoreGame('a story')).toBeNull();
  });

  test('a story marked final without its recap is resumed where it can go on', () => {
    expect(restoreGame({ ...snapshot, isFinal: true, recap: null })?.isFinal).toBe(false);
    expect(restoreGame({ ...snapshot, isFinal: true, recap })?.isFinal).toBe(true);
  });
});

describe('savedStoryResumed', () => {
  const stats = {
    playerStats: {
      moralScore: 10,
      riskScore: 8,
      traitConsistency: 5,
      creativity: 8,
      successRate: 100,
    },
    scoreBreakdown: { decisions: 1, consistency: 2, creativity: 3, morality: 4 },
    finalScore: null,
  };
  const saved = {
    ...selectResumableGame({ game: playing, playerStats: initialPlayerStatsState }),
    ...stats,
  };

  test('opens the playing screen at the saved turn with this session’s key and stats', () => {
    const store = makeStore({
      preloadedState: { game: { ...initialGameState, stage: 'loadOrCreate', apiKey: 'sk-now' } },
    });
    store.dispatch(gameActions.savedStoryResumed(saved));
    const { game, playerStats } = store.getState();
    expect(game).toEqual({ ...playing, apiKey: 'sk-now' });
    expect(playerStats).toEqual(stats);
    store.stop();
  });

  test('never resumes with a summary pending: none is being written, nothing may wait for one', () => {
    // Saved at rest while the last segment's summary was still being written.
    const pending = { ...playing, summaryPending: true };
    const snapshot = selectResumableGame({ game: pending, playerStats: initialPlayerStatsState });
    expect(snapshot).not.toHaveProperty('summaryPending');
    const store = makeStore({ preloadedState: { game: { ...pending, stage: 'loadOrCreate' } } });
    // Even a stored record that somehow carries the flag.
    store.dispatch(gameActions.savedStoryResumed({ ...saved, summaryPending: true } as never));
    expect(store.getState().game).toEqual(
      expect.objectContaining({ stage: 'playing', summaryPending: false }),
    );
    store.stop();
  });

  test('opens the ending screen for a finished story', () => {
    const store = makeStore({
      preloadedState: { game: { ...initialGameState, stage: 'playing', apiKey: 'sk-now' } },
    });
    store.dispatch(gameActions.savedStoryResumed({ ...saved, isFinal: true, recap }));
    expect(store.getState().game).toEqual(
      expect.objectContaining({ stage: 'endingScreen', recap }),
    );
    store.stop();
  });

  test('is ignored before an API key was accepted', () => {
    const store = makeStore();
    store.dispatch(gameActions.savedStoryResumed(saved));
    expect(store.getState().game).toEqual(initialGameState);
    store.stop();
  });
});

/**
 * The turn as phases: which events each phase hears (any other changes nothing, in the story
 * too), where a saved story is taken up (phaseOf), and when it may be saved (isResumable).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { makeStore } from '../../../src/app/store';
import {
  gameActions,
  gameSlice,
  isResumable,
  phaseOf,
  type Phase,
  type ResolvedChoice,
  type Story,
  type Turn,
} from '../../../src/features/game';
import { LOREBOOK_PHASES } from '../../../src/features/game/lorebook/lorebookReducers';
import { PLAYING_PHASES } from '../../../src/features/game/turn/turnRules';
import { gameAt, RECAP } from '../../fixtures/games';

const writing = { streamed: '', thinking: false, wait: null };
const TURNS: Record<Phase, Turn> = {
  keyNeeded: { phase: 'keyNeeded' },
  home: { phase: 'home' },
  choosingGenre: { phase: 'choosingGenre' },
  choosingPortrait: { phase: 'choosingPortrait' },
  naming: { phase: 'naming' },
  opening: { phase: 'opening', progress: 50, ...writing },
  openingFailed: { phase: 'openingFailed', problem: null },
  choosing: { phase: 'choosing' },
  writing: { phase: 'writing', ...writing },
  stopped: { phase: 'stopped' },
  failed: { phase: 'failed', problem: null },
  concluding: { phase: 'concluding', ...writing },
  ended: { phase: 'ended' },
};
const PHASES = Object.keys(TURNS) as Phase[];

const choice: ResolvedChoice = {
  turn: 1,
  option: { text: 'Climb', risk: 'high', alignment: 'neutral', traitAlignment: '' },
  freeText: true,
  outcome: 'failure',
  scenarioType: 'standard',
  outcomesSoFar: ['failure'],
};
const recap = RECAP;
const PARAGRAPH = 'The road ends at a locked gate under a sky of iron.';
const ORLA = {
  id: 'orla',
  name: 'Orla',
  keywords: ['Orla'],
  text: 'The ferryman’s daughter.',
  always: false,
};
/** A turn rolled and resolved, its segment not yet in. */
const unwritten: Partial<Story> = {
  chosenCharacter: 'Aria Vale',
  storyLog: [
    { kind: 'paragraph', text: PARAGRAPH },
    { kind: 'choice', text: 'Climb', outcome: null, freeText: true },
  ],
  previousParagraph: PARAGRAPH,
  storySummary: ['Aria reached the gate.'],
  turnCount: 1,
  lastChoice: choice,
  outcomes: ['failure'],
  lorebook: [ORLA],
};
/** The same turn written: its paragraph and options are in. */
const written: Partial<Story> = {
  ...unwritten,
  storyLog: [...unwritten.storyLog!, { kind: 'paragraph', text: 'Over the gate, and down.' }],
  previousParagraph: 'Over the gate, and down.',
  options: [choice.option],
};

/** The events each phase hears; the ones not named here are heard in every phase. */
const HEARD_IN: Partial<Record<keyof typeof gameActions, readonly Phase[]>> = {
  genreChosen: ['choosingGenre'],
  portraitChosen: ['choosingPortrait'],
  characterNamed: ['naming'],
  characterProfileReceived: ['opening'],
  openingProgressed: ['opening'],
  openingReceived: ['opening'],
  openingSummaryReceived: ['opening'],
  openingRetryRequested: ['openingFailed'],
  outcomeRolled: ['choosing'],
  scenarioPicked: ['writing'],
  segmentStreamed: ['opening', 'writing'],
  reasoningStreamed: ['opening', 'writing'],
  segmentReceived: ['writing'],
  optionsOffered: ['writing'],
  summaryMissing: PLAYING_PHASES,
  summaryStored: PLAYING_PHASES,
  turnRetryScheduled: ['opening', 'writing', 'concluding'],
  turnFailed: ['opening', 'writing', 'concluding', 'choosing'],
  turnRetryRequested: ['failed'],
  scoreComputed: ['concluding'],
  recapReceived: ['concluding'],
  waitCancelled: ['opening', 'writing', 'concluding'],
  writingStopped: ['opening', 'writing'],
  rewriteRequested: ['choosing', 'stopped'],
  paragraphEdited: ['choosing', 'stopped'],
  choiceEdited: ['choosing', 'stopped'],
  memoryCorrected: PLAYING_PHASES,
  storyNotePinned: PLAYING_PHASES,
  loreEntryAdded: LOREBOOK_PHASES,
  loreEntryChanged: LOREBOOK_PHASES,
  loreEntryRemoved: LOREBOOK_PHASES,
  loreEntryRestored: LOREBOOK_PHASES,
  genreLorebookTaken: ['choosingPortrait'],
  illustrationChosen: ['naming', 'opening', 'openingFailed', ...PLAYING_PHASES, 'ended'],
};

/** One event of each kind, each one the phase that hears it would take. */
const EVENTS: Record<string, UnknownAction> = {
  genreChosen: gameActions.genreChosen('Fantasy'),
  portraitChosen: gameActions.portraitChosen(3),
  characterNamed: gameActions.characterNamed('Bram'),
  characterProfileReceived: gameActions.characterProfileReceived({
    gender: 'male',
    bio: 'A smith.',
    traits: [],
    facialFeatures: [],
  }),
  openingProgressed: gameActions.openingProgressed(75),
  openingReceived: gameActions.openingReceived({ storyStart: PARAGRAPH, options: [] }),
  openingSummaryReceived: gameActions.openingSummaryReceived('It began.'),
  openingRetryRequested: gameActions.openingRetryRequested(),
  outcomeRolled: gameActions.outcomeRolled({ ...choice, turn: 2 }),
  scenarioPicked: gameActions.scenarioPicked({ ...choice, turn: 2 }),
  segmentStreamed: gameActions.segmentStreamed('Over the'),
  reasoningStreamed: gameActions.reasoningStreamed(),
  segmentReceived: gameActions.segmentReceived({ text: 'Over the gate.', isFinal: false }),
  optionsOffered: gameActions.optionsOffered([choice.option]),
  summaryMissing: gameActions.summaryMissing(),
  summaryStored: gameActions.summaryStored('It went on.'),
  turnRetryScheduled: gameActions.turnRetryScheduled({
    reason: 'rateLimited',
    attempt: 1,
    retryAt: 9,
  }),
  turnFailed: gameActions.turnFailed(null),
  turnRetryRequested: gameActions.turnRetryRequested(),
  scoreComputed: gameActions.scoreComputed({
    scoreBreakdown: { decisions: 1, consistency: 2, creativity: 3, morality: 4 },
    score: 70,
  }),
  recapReceived: gameActions.recapReceived(recap),
  waitCancelled: gameActions.waitCancelled(),
  writingStopped: gameActions.writingStopped(),
  rewriteRequested: gameActions.rewriteRequested(),
  paragraphEdited: gameActions.paragraphEdited('Over the gate, and far down the other side.'),
  choiceEdited: gameActions.choiceEdited('Climb slowly'),
  memoryCorrected: gameActions.memoryCorrected({ index: 0, text: 'Aria stood at the gate.' }),
  storyNotePinned: gameActions.storyNotePinned('Aria fears heights.'),
  loreEntryAdded: gameActions.loreEntryAdded({
    name: 'The gate',
    keywords: ['gate'],
    text: 'It opens only at dawn.',
    always: false,
  }),
  loreEntryChanged: gameActions.loreEntryChanged({ ...ORLA, text: 'She drowned in turn 6.' }),
  loreEntryRemoved: gameActions.loreEntryRemoved({ id: 'orla' }),
  loreEntryRestored: gameActions.loreEntryRestored({
    entry: { ...ORLA, id: 'orla-2' },
    index: 0,
  }),
  genreLorebookTaken: gameActions.genreLorebookTaken([ORLA]),
  illustrationChosen: gameActions.illustrationChosen(true),
};

describe('an event a phase does not hear changes nothing', () => {
  const cases = (Object.keys(EVENTS) as (keyof typeof gameActions)[]).flatMap((event) =>
    PHASES.filter((phase) => !HEARD_IN[event]!.includes(phase)).map((phase) => [event, phase]),
  );
  test.each(cases)('%s in %s', (event, phase) => {
    for (const story of [unwritten, written]) {
      const state = gameAt({ turn: TURNS[phase as Phase], summary: 'pending', story });
      expect(gameSlice.reducer(state, EVENTS[event]!)).toBe(state);
    }
  });
});

test('every phase that hears an event is a phase the event can change something in', () => {
  // The table above is not vacuous: each event listed changes the state in some phase it names.
  for (const [event, phases] of Object.entries(HEARD_IN)) {
    const changes = phases!.some((phase) =>
      [unwritten, written, {}].some((story) =>
        (['written', 'pending'] as const).some((summary) => {
          const state = gameAt({ turn: TURNS[phase], summary, story });
          return gameSlice.reducer(state, EVENTS[event]!) !== state;
        }),
      ),
    );
    expect([event, changes]).toEqual([event, true]);
  }
});

describe('phaseOf: where a saved story is taken up', () => {
  test.each<[string, Partial<Story>, Phase]>([
    ['a turn written, its options offered', written, 'choosing'],
    ['a turn saved before its segment came: stopped, its roll kept', unwritten, 'stopped'],
    [
      'the same with no rewrite left: Try again goes on',
      { ...unwritten, turnRewrites: 3 },
      'failed',
    ],
    ['an ended story with its recap', { ...written, isFinal: true, recap }, 'ended'],
  ])('%s', (_name, story, phase) => {
    expect(phaseOf(gameAt({ story }).story).phase).toBe(phase);
  });
});

describe('isResumable: when the story may be saved', () => {
  test.each<[string, Phase, Partial<Story>, boolean]>([
    ['choices offered', 'choosing', written, true],
    ['a turn being written, its roll made', 'writing', unwritten, true],
    ['a segment in, its options not yet', 'writing', written, false],
    ['a stopped turn', 'stopped', unwritten, true],
    ['a failed turn', 'failed', unwritten, true],
    ['the story start, before its summary', 'opening', written, true],
    ['the opening before any text', 'opening', {}, false],
    ['the recap being written', 'concluding', written, false],
    ['the ending', 'ended', { ...written, isFinal: true, recap }, true],
    ['the load-or-create screen', 'home', written, false],
  ])('%s', (_name, phase, story, expected) => {
    expect(isResumable(gameAt({ turn: TURNS[phase], story }))).toBe(expected);
  });
});

describe('savedStoryResumed', () => {
  test('takes the story up where it was left, with this session’s key', () => {
    const store = makeStore({ preloadedState: { game: gameAt({ turn: { phase: 'home' } }) } });
    const story = gameAt({ story: unwritten }).story;
    store.dispatch(gameActions.savedStoryResumed(story));
    const { game } = store.getState();
    expect(game.story).toBe(story);
    expect(game.turn).toEqual({ phase: 'stopped' });
    expect(game.apiKey).toBe('sk-test');
    // No summary is being written for a story just opened: nothing may wait for one.
    expect(game.summary).toBe('written');
    store.stop();
  });

  test('is ignored before an API key was accepted', () => {
    const store = makeStore();
    const before = store.getState().game;
    store.dispatch(gameActions.savedStoryResumed(gameAt({ story: written }).story));
    expect(store.getState().game).toBe(before);
    store.stop();
  });
});

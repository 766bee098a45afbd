/**
 * The page behind budget 6 (scripts/bench/autoSave.ts), bundled at bench time: the app's own
 * store (makeStore, its reducers and its sagas) and its own save path (recordOf and keepInBrowser
 * on MyStoriesDB), driven from the benchmark through `window.autoSaveBench`.
 */
import { makeStore } from '../../../src/app/store';
import { type StoryOption } from '../../../src/engine/types';
import {
  gameActions,
  scoreComputed,
  selectStory,
  type ResolvedChoice,
} from '../../../src/features/game';
import { storiesActions } from '../../../src/features/stories';
import { type CurrentRecord, recordOf } from '../../../src/features/stories/storyRecord';
import { walletOwner } from '../../../src/features/stories/savedStory';
import { openStoriesDb } from '../../../src/features/stories/browserDb';
import { keepInBrowser } from '../../../src/features/stories/browserPlace';
import { selectWalletAddress } from '../../../src/features/wallet';
import { PLAYING_GAME, gameAt } from '../../../test/fixtures/games';
import { CHANGES_PER_TURN } from './autoSaveTurn';

/** What the benchmark calls in the page. */
export interface AutoSaveBench {
  /** Plays `turns` whole turns through the game's reducers; returns the saved record's JSON size. */
  playTurns(turns: number): number;
  /** Saves the story as the auto-save does (its record, then the browser place), `rounds` times; ms each. */
  timeSaves(rounds: number): Promise<number[]>;
  /** Starts the stories flows, as the app does when the list is first asked for. */
  startStoriesFlow(): Promise<void>;
  /**
   * `changes` story changes (whole turns: choice, paragraph, summary, score), one every
   * `everyMs`; resolves with the ms from the first to the last.
   */
  burst(changes: number, everyMs: number): Promise<number>;
  /** The turn count the stories flow last saved, from its record in MyStoriesDB. */
  savedTurnCount(): Promise<number | null>;
  /** The game's turn count now. */
  turnCount(): number;
}

const SENTENCES = [
  'Rain hammers the slate roofs of the harbour town as you press against the cold wall.',
  'Somewhere below, a bell tolls twice, and the smugglers stop to listen.',
  'The lantern in your hand gutters, throwing long shadows across the carved archway.',
  'You taste salt and iron on the wind, the smell of a storm that has not yet broken.',
  'Your fingers find the torn map in your coat, its roads running off the known world.',
  'A figure in a grey cloak steps out of the alley, one hand raised, the other hidden.',
  'The old bridge groans under your weight, and the river churns white far beneath it.',
  'Torchlight flickers in the watchtower, though the garrison left a year ago.',
  'The merchant counts your coins twice and slides a brass key across the counter.',
  'The child in the doorway is staring at you with wide, pleading eyes.',
  'Your companion draws her blade as the chapel doors swing open on their own.',
  'The forest falls silent all at once, as if every bird has been told a secret.',
];

/** About 150 words, as a turn's paragraph (SPEC.md: scenes of 65 to 200 words). */
function paragraph(turn: number): string {
  const words = Array.from(
    { length: 12 },
    (_, i) => SENTENCES[(turn * 7 + i * 5) % SENTENCES.length],
  );
  return `Turn ${turn}. ${words.join(' ')}`;
}

/** Three options of 10 to 30 words, different every turn. */
function options(turn: number): StoryOption[] {
  return (['low', 'medium', 'high'] as const).map((risk, i) => ({
    text: `Option ${i + 1} of turn ${turn}: ${SENTENCES[(turn + i) % SENTENCES.length]}`,
    risk,
    alignment: (['moral', 'neutral', 'immoral'] as const)[i]!,
    traitAlignment: 'curious',
  }));
}

const store = makeStore({
  preloadedState: {
    game: gameAt({ ...PLAYING_GAME, story: { ...PLAYING_GAME.story, chosenImage: 5 } }),
  },
});
let current: CurrentRecord | null = null;
let turn = 0;
const openDb = openStoriesDb();

/** One whole turn, as the game's sagas dispatch it: CHANGES_PER_TURN story changes. */
const turnEvents = () => {
  turn += 1;
  const option = store.getState().game.story.options[0] ?? options(turn)[0]!;
  const outcomes = store.getState().game.story.outcomes;
  const choice: ResolvedChoice = {
    turn,
    option,
    freeText: false,
    outcome: 'success',
    scenarioType: 'standard',
    outcomesSoFar: [...outcomes, 'success'],
  };
  return [
    gameActions.outcomeRolled(choice),
    gameActions.scenarioPicked(choice),
    gameActions.segmentReceived({ text: paragraph(turn), isFinal: false }),
    gameActions.optionsOffered(options(turn)),
    gameActions.summaryStored(`In turn ${turn} Aria followed the map deeper into the valley.`),
    scoreComputed({
      scoreBreakdown: store.getState().game.story.scoreBreakdown,
      score: turn * 10,
    }),
  ];
};

const record = () => recordOf(selectStory(store.getState()), current);
/** Whose story it is, as the save flow names it: the wallet, or 'anonymous'. */
const owner = () => walletOwner(selectWalletAddress(store.getState()));

const bench: AutoSaveBench = {
  playTurns(turns) {
    for (let i = 0; i < turns; i += 1) turnEvents().forEach((event) => store.dispatch(event));
    return JSON.stringify(record()).length;
  },

  async timeSaves(rounds) {
    const db = await openDb;
    const times: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const start = performance.now();
      const result = await keepInBrowser(db, record(), owner(), new Date());
      times.push(performance.now() - start);
      if (!result.saved) throw new Error(`The story was not saved: ${result.reason}`);
      const { id, revision, lastSaved } = result;
      current = { id, walletAddress: owner(), revision, lastSaved };
    }
    return times;
  },

  async startStoriesFlow() {
    store.dispatch(storiesActions.savedStoriesRequested());
    while (store.getState().stories.list.status !== 'loaded') {
      if (store.getState().stories.list.status === 'failed') {
        throw new Error('The stories flow could not list the saved stories');
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  },

  async burst(changes, everyMs) {
    // Whole turns only: a burst that ended mid-turn would leave nothing the game may save.
    if (changes % CHANGES_PER_TURN !== 0) {
      throw new Error(`A burst is whole turns of ${CHANGES_PER_TURN} changes, not ${changes}`);
    }
    const events = Array.from({ length: changes / CHANGES_PER_TURN }, turnEvents).flat();
    if (events.length !== changes) throw new Error('A turn is not CHANGES_PER_TURN changes');
    // Every change is timed from the start, not from the one before, so no wait adds up.
    const start = performance.now();
    let last = start;
    await Promise.all(
      events.map(
        (event, i) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              store.dispatch(event);
              last = performance.now();
              resolve();
            }, i * everyMs),
          ),
      ),
    );
    return last - start;
  },

  async savedTurnCount() {
    const record = store.getState().stories.current;
    if (!record) return null;
    const db = await openDb;
    const stored = await db.get('stories', record.id);
    return (stored?.game.turnCount as number | undefined) ?? null;
  },

  turnCount: () => store.getState().game.story.turnCount,
};

(window as unknown as { autoSaveBench: AutoSaveBench }).autoSaveBench = bench;

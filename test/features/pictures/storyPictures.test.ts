/**
 * Issue 41: which pictures a story has as it goes on. The ending drawn with the recap, a moment
 * on request, the opening and ending drawn when pictures are turned on mid-story, pictures past a
 * paragraph written again let go (and deleted from MyStoriesDB), and the kept ones shown when a
 * saved story is taken up. Scenes as in pictureFlows.test.ts; turnsToDraw as the table it is.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { all, call, put, select, take } from 'typed-redux-saga';
import { rootReducer, type RootState } from './pictureScenes';
import {
  canRewrite,
  gameActions,
  initialStory,
  type Story,
  type Turn,
} from '../../../src/features/game';
import { PICTURE_TIMEOUT_MS } from '../../../src/features/llm';
import {
  keepBranchPictures,
  picturesActions,
  type PicturesState,
} from '../../../src/features/pictures';
import { handOverPicture, pictureHandedOver } from '../../../src/features/pictures/handedOver';
import { turnsToDraw } from '../../../src/features/pictures/sagas/storyPictures';
import {
  ENDING_TURN,
  MAX_MOMENT_PICTURES,
  keepPicture,
  openStoriesDb,
  picturesOf,
  storiesActions,
  type StoriesDb,
} from '../../../src/features/stories';
import { wait } from '../../../src/shared/waits';
import { RECAP, appStateWith } from '../../fixtures/games';
import { pictureOf } from '../../fixtures/storyPictures';
import { contextProviders } from '../../support/sagaReplay';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';
import {
  NAMED_STORY,
  OPENING,
  SECOND,
  drawnAfter,
  fakePictureClient,
  firstTurn,
  keptStory,
  neverAnswers,
  openingArrives,
  openingState,
  putsOf,
  reduced,
  savedAs,
  scene,
  withPictures,
  type KeptRecord,
} from './pictureScenes';

let db: StoriesDb;
let clock: VirtualClock;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
  clock = virtualClock();
});
afterEach(() => db.close());

/**
 * The root's start with a saved story being played: the models listed, and, for a story that is
 * illustrated or keeps pictures, the pictures MyStoriesDB keeps of it shown (the story flows'
 * catch-up). A story with neither has no story flows yet: they come when it is illustrated.
 */
function* settled({ keptShown = true } = {}) {
  yield* all([
    take(picturesActions.imageModelsListed.type),
    ...(keptShown ? [take(picturesActions.storyPicturesFound.type)] : []),
  ]);
}

/** The story at its second choice (two paragraphs), saved as `record`. */
function atSecondChoice(record: KeptRecord, story: Partial<Story> = {}): RootState {
  return reduced(openingState(story), savedAs(record), ...openingArrives, ...firstTurn);
}

async function keep(record: KeptRecord, ...pictures: Parameters<typeof pictureOf>[]) {
  for (const args of pictures) {
    const kept = await keepPicture(db, pictureOf(...args));
    if (!kept.kept) throw new Error(`not kept: ${kept.reason}`);
  }
  return (await picturesOf(db, record.id)).map((picture) => picture.turn);
}

/** A picture shown, kept under the saved story these scenes keep first (its id is 1). */
const shown = (alt: string) => ({ status: 'shown', storyId: 1, width: 768, height: 512, alt });

describe('the ending and the moments', () => {
  test('the recap draws the ending from the last paragraph, kept under its own turn', async () => {
    const record = await keptStory(db);
    const concluding: Turn = { phase: 'concluding', streamed: '', thinking: false, wait: null };
    const state = reduced(
      withPictures(
        appStateWith(
          {
            turn: concluding,
            story: {
              ...NAMED_STORY,
              storyLog: [
                { kind: 'paragraph', text: OPENING },
                { kind: 'choice', text: 'Light the lamp', outcome: null, freeText: false },
                { kind: 'paragraph', text: SECOND },
              ],
            },
          },
          { provider: 'openai' },
        ),
      ),
      savedAs(record),
    );
    const client = fakePictureClient(clock, { draws: [drawnAfter(10_000)] });
    const result = await scene(state, { clock, client, db }, function* () {
      yield* settled();
      yield* put(gameActions.recapReceived(RECAP));
      yield* take(picturesActions.pictureShown.type);
    });

    expect(result.state.game.turn.phase).toBe('ended');
    expect(result.state.pictures.pictures).toEqual({
      [ENDING_TURN]: { ...shown(SECOND), moment: 'ending' },
    });
    expect(client.drawn[0]!.prompt).toContain('written a name in the salt');
    const kept = await picturesOf(db, record.id);
    expect(kept.map(({ turn, moment }) => ({ turn, moment }))).toEqual([
      { turn: ENDING_TURN, moment: 'ending' },
    ]);
  });

  test('"Picture this moment" draws the latest paragraph once; asking again while it is there does nothing', async () => {
    const record = await keptStory(db);
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const result = await scene(atSecondChoice(record), { clock, client, db }, function* () {
      yield* settled();
      yield* put(picturesActions.momentPictureRequested(1));
      yield* put(picturesActions.momentPictureRequested(1));
      yield* take(picturesActions.pictureShown.type);
      yield* put(picturesActions.momentPictureRequested(1));
      yield* call(wait, PICTURE_TIMEOUT_MS);
    });

    expect(client.drawn).toHaveLength(1);
    expect(result.state.pictures.pictures[1]).toEqual({ ...shown(SECOND), moment: 'moment' });
    expect((await picturesOf(db, record.id)).map((picture) => picture.turn)).toEqual([1]);
  });

  test('Try again is heard only for a picture that failed', async () => {
    const record = await keptStory(db);
    await keep(record, [record.id, 'opening']);
    const client = fakePictureClient(clock);
    const result = await scene(atSecondChoice(record), { clock, client, db }, function* () {
      yield* settled();
      // The opening is shown; turn 1 has no picture: neither is drawn again.
      yield* put(picturesActions.pictureRetryRequested(0));
      yield* put(picturesActions.pictureRetryRequested(1));
      yield* call(wait, PICTURE_TIMEOUT_MS);
    });
    expect(client.drawn).toEqual([]);
    expect(Object.keys(result.state.pictures.pictures)).toEqual(['0']);
  });
});

describe('pictures turned on mid-story', () => {
  test('draw the opening that is missing, and nothing else, while the story plays', async () => {
    const record = await keptStory(db);
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const state = atSecondChoice(record, { illustrated: false });
    const result = await scene(state, { clock, client, db }, function* () {
      yield* settled({ keptShown: false });
      yield* put(gameActions.illustrationChosen(true));
      yield* take(picturesActions.pictureShown.type);
      yield* call(wait, PICTURE_TIMEOUT_MS);
    });
    expect(result.state.game.story.illustrated).toBe(true);
    expect(client.drawn).toHaveLength(1);
    expect(result.state.pictures.pictures).toEqual({ 0: { ...shown(OPENING), moment: 'opening' } });
  });

  test('on the ending screen, draw the ending besides a kept opening', async () => {
    const record = await keptStory(db);
    await keep(record, [record.id, 'opening']);
    const state = reduced(
      withPictures(
        appStateWith(
          {
            turn: { phase: 'ended' },
            story: {
              ...NAMED_STORY,
              illustrated: false,
              recap: RECAP,
              storyLog: [{ kind: 'paragraph', text: OPENING }],
            },
          },
          { provider: 'openai' },
        ),
      ),
      savedAs(record),
    );
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const result = await scene(state, { clock, client, db }, function* () {
      yield* settled();
      yield* put(gameActions.illustrationChosen(true));
      yield* take(picturesActions.pictureShown.type);
      yield* call(wait, PICTURE_TIMEOUT_MS);
    });
    expect(client.drawn).toHaveLength(1);
    expect(putsOf(result.puts, picturesActions.pictureShown.type)).toEqual([
      picturesActions.pictureShown({
        storyId: record.id,
        turn: ENDING_TURN,
        moment: 'ending',
        width: 768,
        height: 512,
        alt: OPENING,
      }),
    ]);
    expect((await picturesOf(db, record.id)).map((picture) => picture.turn)).toEqual([
      0,
      ENDING_TURN,
    ]);
  });
});

describe('a paragraph written again', () => {
  test('lets its picture go, and deletes it from MyStoriesDB; the opening’s stays', async () => {
    const record = await keptStory(db);
    expect(await keep(record, [record.id, 'opening'], [record.id, 'moment', 1])).toEqual([0, 1]);
    const state = atSecondChoice(record);
    expect(canRewrite(state.game)).toBe(true);
    const client = fakePictureClient(clock);
    const result = await scene(state, { clock, client, db }, function* () {
      yield* settled();
      yield* put(gameActions.rewriteRequested());
      yield* call(wait, 1_000);
    });

    expect(putsOf(result.puts, picturesActions.pictureDropped.type)).toEqual([
      picturesActions.pictureDropped(1),
    ]);
    expect(Object.keys(result.state.pictures.pictures)).toEqual(['0']);
    expect((await picturesOf(db, record.id)).map((picture) => picture.turn)).toEqual([0]);
    expect(client.drawn).toEqual([]);
  });

  test('lets go of its picture handed to a view that had not shown it yet', async () => {
    const record = await keptStory(db);
    await keep(record, [record.id, 'opening'], [record.id, 'moment', 1]);
    const waiting = new Blob(['the moment as it was drawn'], { type: 'image/webp' });
    handOverPicture(record.id, 1, waiting);
    handOverPicture(record.id, 0, waiting);
    await scene(
      atSecondChoice(record),
      { clock, client: fakePictureClient(clock), db },
      function* () {
        yield* settled();
        yield* put(gameActions.rewriteRequested());
        yield* call(wait, 1_000);
      },
    );
    // The paragraph's picture is gone from MyStoriesDB: its Blob is not shown in its stead.
    expect(pictureHandedOver(record.id, 1)).toBeUndefined();
    expect(pictureHandedOver(record.id, 0)).toBe(waiting);
  });

  test('stops the drawing of its picture: the request aborted, nothing shown or failed', async () => {
    const record = await keptStory(db);
    const client = fakePictureClient(clock, { draws: [neverAnswers] });
    const result = await scene(atSecondChoice(record), { clock, client, db }, function* () {
      yield* settled();
      yield* put(picturesActions.momentPictureRequested(1));
      yield* call(wait, 1_000);
      yield* put(gameActions.rewriteRequested());
      yield* call(wait, 2 * PICTURE_TIMEOUT_MS);
    });

    expect(client.drawn).toHaveLength(1);
    expect(client.drawn[0]!.signal.aborted).toBe(true);
    expect(result.state.pictures.pictures).toEqual({});
    expect(putsOf(result.puts, picturesActions.pictureFailed.type)).toEqual([]);
  });
});

describe('a saved story taken up', () => {
  test('shows the pictures MyStoriesDB keeps of it, and only of it', async () => {
    const record = await keptStory(db);
    const other = await keptStory(db, { chosenCharacter: 'Ned Quay' });
    await keep(
      record,
      [record.id, 'opening'],
      [record.id, 'moment', 2],
      [record.id, 'ending', 3],
      [other.id, 'moment', 1],
    );
    const story: Story = {
      ...initialStory,
      ...NAMED_STORY,
      storyLog: [{ kind: 'paragraph', text: OPENING }],
      options: [],
      turnCount: 2,
    };
    // At home, a picture of the last story still on screen.
    const home: RootState = {
      ...appStateWith({ turn: { phase: 'home' } }, { provider: 'openai' }),
      pictures: {
        imageModels: { status: 'unknown' },
        pictures: { 4: { status: 'drawing', moment: 'moment' } },
        storyFlows: true,
        storyFlowsMissing: false,
      } satisfies PicturesState,
    };
    const client = fakePictureClient(clock);
    const resume: UnknownAction[] = [gameActions.savedStoryResumed(story)];
    const result = await scene(home, { clock, client, db }, function* () {
      yield* take(picturesActions.imageModelsListed.type);
      for (const action of resume) yield* put(action);
      yield* put(storiesActions.storyLoaded(record));
      yield* take(picturesActions.storyPicturesFound.type);
    });

    const alt = (turn: number) => pictureOf(record.id, 'moment', turn).alt;
    expect(result.state.pictures.pictures).toEqual({
      0: { ...shown(alt(1)), moment: 'opening' },
      2: { ...shown(alt(2)), moment: 'moment' },
      [ENDING_TURN]: { ...shown(alt(3)), moment: 'ending' },
    });
    expect(client.drawn).toEqual([]);
  });
});

describe('turnsToDraw', () => {
  const story = (changes: Partial<Story> = {}): Story => ({
    ...initialStory,
    illustrated: true,
    storyLog: [{ kind: 'paragraph', text: OPENING }],
    ...changes,
  });
  const failed = {
    status: 'failed',
    moment: 'moment',
    failure: { kind: 'other', retryAt: null, providerMessage: null },
  } as const;
  const pictures: PicturesState['pictures'] = {
    0: { status: 'shown', storyId: 1, moment: 'opening', width: 1, height: 1, alt: '' },
    2: failed,
    3: { status: 'drawing', moment: 'moment' },
  };
  const opening = gameActions.openingReceived({ storyStart: OPENING, options: [] });

  test.each<[string, Story, UnknownAction, number[]]>([
    ['nothing for a story not illustrated', story({ illustrated: false }), opening, []],
    ['the opening with the opening', story(), opening, [0]],
    ['the ending with the recap', story(), gameActions.recapReceived(RECAP), [ENDING_TURN]],
    ['a moment asked for that has none', story(), picturesActions.momentPictureRequested(5), [5]],
    ['no moment that has one', story(), picturesActions.momentPictureRequested(0), []],
    ['Try again on a failed one', story(), picturesActions.pictureRetryRequested(2), [2]],
    ['no Try again on one being drawn', story(), picturesActions.pictureRetryRequested(3), []],
    ['no Try again on a shown one', story(), picturesActions.pictureRetryRequested(0), []],
    ['no Try again where there is none', story(), picturesActions.pictureRetryRequested(7), []],
    [
      'nothing on the naming screen',
      story({ storyLog: [] }),
      gameActions.illustrationChosen(true),
      [],
    ],
    [
      'the missing ending once on mid-story',
      story({ recap: RECAP }),
      gameActions.illustrationChosen(true),
      [ENDING_TURN],
    ],
    ['nothing for other events', story(), gameActions.choiceMade({ index: 0 }), []],
  ])('%s', (_name, of, action, turns) => {
    expect(turnsToDraw(of, pictures, action)).toEqual(turns);
  });

  test('no moment past the story’s room (drawn and paid for, it would be refused), but its opening and ending', () => {
    const full: PicturesState['pictures'] = Object.fromEntries(
      Array.from({ length: MAX_MOMENT_PICTURES }, (_, index) => [
        index + 1,
        { status: 'drawing', moment: 'moment' } as const,
      ]),
    );
    const asked = (turn: number) =>
      turnsToDraw(story(), full, picturesActions.momentPictureRequested(turn));
    expect(asked(MAX_MOMENT_PICTURES + 1)).toEqual([]);
    expect(asked(0)).toEqual([0]);
    expect(asked(ENDING_TURN)).toEqual([ENDING_TURN]);
  });

  test('the opening and the ending, turned on where neither is there', () => {
    expect(turnsToDraw(story({ recap: RECAP }), {}, gameActions.illustrationChosen(true))).toEqual([
      0,
      ENDING_TURN,
    ]);
  });
});

describe('a story that went on as a branch of its own (another tab had played it on)', () => {
  const choice = {
    kind: 'choice',
    text: 'Knock on the gate',
    outcome: null,
    freeText: false,
  } as const;
  const line = (second: string): Partial<Story> => ({
    storyLog: [{ kind: 'paragraph', text: OPENING }, choice, { kind: 'paragraph', text: second }],
  });
  const OTHER_TAB = 'The porter lets Aria in.';
  const THIS_TAB = 'Nobody answers; Aria climbs the wall.';

  /**
   * The other tab's line kept under the story's own id with its opening (and turn 1) drawn, this
   * tab's line saved as a branch; the story taken up here, its kept pictures shown, then `script`.
   */
  async function branched(
    script: (branch: KeptRecord, from: KeptRecord) => Generator,
    { otherTabDrew = true } = {},
  ) {
    const record = await keptStory(db, line(OTHER_TAB));
    const branch = await keptStory(db, line(THIS_TAB));
    await keep(record, [record.id, 'opening']);
    if (otherTabDrew) await keep(record, [record.id, 'moment', 1]);
    const story: Story = {
      ...initialStory,
      ...NAMED_STORY,
      ...line(THIS_TAB),
      illustrated: true,
      options: [],
      turnCount: 1,
    };
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const result = await scene(
      appStateWith({ turn: { phase: 'home' } }, { provider: 'openai' }) as RootState,
      { clock, client, db },
      function* () {
        yield* take(picturesActions.imageModelsListed.type);
        yield* put(gameActions.savedStoryResumed(story));
        yield* put(storiesActions.storyLoaded(record));
        yield* take(picturesActions.storyPicturesFound.type);
        yield* call(script, branch, record);
      },
    );
    return { result, record, branch, client };
  }

  /** The branch's save, as the stories' flows report it for the story in play. */
  function* savedAsBranch(branch: KeptRecord, from: KeptRecord) {
    const { storyGeneration } = (yield* select((state: RootState) => state.stories))!;
    yield* put(
      storiesActions.storySavedAsBranch({
        ...branch,
        from: from.id,
        manual: false,
        storyGeneration,
      }),
    );
  }

  test('keeps copies of the pictures of the scenes both lines share, shows them from itself, and sends them', async () => {
    const { result, record, branch, client } = await branched(function* (branch, from) {
      yield* call(savedAsBranch, branch, from);
      yield* take(picturesActions.branchPicturesKept.type);
    });

    // The opening is a scene of both lines; turn 1 is the other tab's, and stays with it.
    expect(result.state.stories.current?.id).toBe(branch.id);
    expect((await picturesOf(db, branch.id)).map((picture) => picture.turn)).toEqual([0]);
    expect((await picturesOf(db, record.id)).map((picture) => picture.turn)).toEqual([0, 1]);
    expect(result.state.pictures.pictures[0]).toMatchObject({
      status: 'shown',
      storyId: branch.id,
    });
    expect(result.state.pictures.pictures[1]).toMatchObject({
      status: 'shown',
      storyId: record.id,
    });
    // Kept under the branch as a drawn picture is: the wallet's cloud hears of it the same way.
    expect(putsOf(result.puts, storiesActions.pictureKept.type)).toEqual([
      storiesActions.pictureKept({ storyId: branch.id, turn: 0 }),
    ]);
    expect(client.drawn).toEqual([]);
  });

  test('a branch reported after the player took up the story it split from is copied, not shown from', async () => {
    const { result, record, branch } = await branched(function* (branch, from) {
      // The report of an earlier story's save: the stories' slice lets it go.
      yield* put(
        storiesActions.storySavedAsBranch({
          ...branch,
          from: from.id,
          manual: false,
          storyGeneration: -1,
        }),
      );
      yield* take(storiesActions.pictureKept.type);
    });

    expect(result.state.stories.current?.id).toBe(record.id);
    expect((await picturesOf(db, branch.id)).map((picture) => picture.turn)).toEqual([0]);
    expect(putsOf(result.puts, picturesActions.branchPicturesKept.type)).toEqual([]);
    expect(result.state.pictures.pictures[0]).toMatchObject({
      status: 'shown',
      storyId: record.id,
    });
  });

  test('a picture drawn while the story went on as a branch is kept under the branch', async () => {
    const { result, record, branch, client } = await branched(
      function* (branch, from) {
        yield* put(picturesActions.momentPictureRequested(1));
        // Being drawn, and so asked for under the story's own id, when the split comes.
        yield* take(picturesActions.pictureDrawingStarted.type);
        yield* call(savedAsBranch, branch, from);
        yield* take(picturesActions.pictureShown.type);
      },
      { otherTabDrew: false },
    );

    expect(client.drawn).toHaveLength(1);
    expect(result.state.pictures.pictures[1]).toMatchObject({
      status: 'shown',
      storyId: branch.id,
    });
    expect((await picturesOf(db, branch.id)).map((picture) => picture.turn)).toEqual([0, 1]);
    // The other tab's story is left as it was: this tab's scene is not its turn 1.
    expect((await picturesOf(db, record.id)).map((picture) => picture.turn)).toEqual([0]);
  });

  test('keepBranchPictures, replayed alone: the copy, then its events, and nothing for a branch with nothing to copy', async () => {
    const record = await keptStory(db, line(OTHER_TAB));
    const branch = await keptStory(db, line(THIS_TAB));
    await keep(record, [record.id, 'opening'], [record.id, 'moment', 1]);
    const playing = reduced(openingState(), savedAs(branch));
    const replay = () =>
      expectSaga(keepBranchPictures, { id: branch.id, from: record.id })
        .withReducer(rootReducer, playing)
        .provide(contextProviders({ clock, openStoriesDb: () => Promise.resolve(db) }));
    await replay()
      .put(picturesActions.branchPicturesKept({ from: record.id, storyId: branch.id, turns: [0] }))
      .put(storiesActions.pictureKept({ storyId: branch.id, turn: 0 }))
      .run(false);
    // Copied once: a second report finds the branch has its opening, and says nothing.
    const again = await replay().run(false);
    expect(again.effects.put).toBeUndefined();
    expect((await picturesOf(db, branch.id)).map((picture) => picture.turn)).toEqual([0]);
  });
});

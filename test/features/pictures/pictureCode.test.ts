/**
 * Issue 41, part 6: the code that draws comes with the first picture, not before. A key for a
 * provider that draws brings the pictures' first flows (the image models listed, so "Illustrate
 * this story" can be offered); a story's pictures' flows, with the client's drawing and the
 * worker, are fetched only once a story is illustrated or one that keeps pictures is taken up.
 * The fetch is the saga context's `loadStoryPictures`, here counted and held back: what happens
 * while it is on its way is not lost. Scenes as in pictureFlows.test.ts.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { call, put, take } from 'typed-redux-saga';
import { gameActions, initialStory, type Story } from '../../../src/features/game';
import { PICTURE_TIMEOUT_MS } from '../../../src/features/llm';
import {
  followStories,
  picturesActions,
  type PicturesContext,
} from '../../../src/features/pictures';
import {
  keepPicture,
  openStoriesDb,
  storiesActions,
  type StoriesDb,
} from '../../../src/features/stories';
import { wait } from '../../../src/shared/waits';
import { pictureOf } from '../../fixtures/storyPictures';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';
import {
  NAMED_STORY,
  OPENING,
  SECOND,
  drawnAfter,
  fakePictureClient,
  firstTurn,
  keptStory,
  namingState,
  openingArrives,
  openingState,
  putsOf,
  reduced,
  savedAs,
  scene,
} from './pictureScenes';

let db: StoriesDb;
let clock: VirtualClock;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
  clock = virtualClock();
});
afterEach(() => db.close());

/**
 * The story pictures' code as the page fetches it, counted: it arrives when `release` is called
 * (at once if `held` is false).
 */
function storyPicturesCode({ held = false, failures = 0 } = {}) {
  let release = () => {};
  const arrived = held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const fetched: number[] = [];
  const load: PicturesContext['loadStoryPictures'] = () => {
    fetched.push(clock.now());
    // As a chunk that could not be fetched (offline, or gone after a new release).
    if (fetched.length <= failures) return Promise.reject(new Error('Loading chunk failed'));
    return arrived.then(() => ({ followStories }));
  };
  return { load, fetched, release: () => release() };
}

test('a story not illustrated: the models are listed, and the code that draws is never fetched', async () => {
  const record = await keptStory(db);
  const code = storyPicturesCode();
  const client = fakePictureClient(clock);
  const result = await scene(
    openingState({ illustrated: false }),
    { clock, client, db, loadStoryPictures: code.load },
    function* () {
      yield* take(picturesActions.imageModelsListed.type);
      yield* put(savedAs(record));
      for (const action of [...openingArrives, ...firstTurn]) yield* put(action);
      yield* call(wait, PICTURE_TIMEOUT_MS);
    },
  );

  expect(result.state.pictures.imageModels).toMatchObject({ status: 'listed' });
  expect(code.fetched).toEqual([]);
  expect(result.state.pictures.storyFlows).toBe(false);
  expect(putsOf(result.puts, picturesActions.storyFlowsStarted.type)).toEqual([]);
  expect(client.drawn).toEqual([]);
});

test('turned on while naming the hero: the opening that arrives before the code is still drawn', async () => {
  const record = await keptStory(db);
  const code = storyPicturesCode({ held: true });
  const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
  const result = await scene(
    namingState({ illustrated: false }),
    { clock, client, db, loadStoryPictures: code.load },
    function* () {
      yield* take(picturesActions.imageModelsListed.type);
      yield* put(gameActions.illustrationChosen(true));
      yield* put(gameActions.characterNamed('Mira Vale'));
      yield* put(savedAs(record));
      for (const action of openingArrives) yield* put(action);
      // The opening is on the page; the code that draws it comes only now.
      yield* call(wait, 1_000);
      code.release();
      yield* take(picturesActions.pictureShown.type);
    },
  );

  // Fetched once, when the story was illustrated, before the opening came.
  expect(code.fetched).toEqual([0]);
  expect(client.drawn).toHaveLength(1);
  expect(client.drawn[0]!.prompt).toContain(OPENING.slice(0, 40));
  expect(result.state.pictures.pictures[0]).toMatchObject({ status: 'shown', moment: 'opening' });
  expect(result.state.pictures.storyFlows).toBe(true);
});

describe('a saved story taken up, not illustrated', () => {
  const resumed = (state: ReturnType<typeof openingState>) =>
    reduced(state, ...openingArrives, ...firstTurn);

  test('keeping pictures from when it was: the code comes, and its pictures are shown', async () => {
    const record = await keptStory(db);
    const kept = await keepPicture(db, pictureOf(record.id, 'opening'));
    expect(kept.kept).toBe(true);
    const code = storyPicturesCode();
    const client = fakePictureClient(clock);
    const result = await scene(
      resumed(openingState({ illustrated: false })),
      { clock, client, db, loadStoryPictures: code.load },
      function* () {
        yield* take(picturesActions.imageModelsListed.type);
        yield* put(storiesActions.storyLoaded(record));
        yield* take(picturesActions.storyPicturesFound.type);
      },
    );

    expect(code.fetched).toHaveLength(1);
    expect(result.state.pictures.pictures[0]).toMatchObject({ status: 'shown', moment: 'opening' });
    expect(client.drawn).toEqual([]);
  });

  test('keeping none: nothing is fetched until it is illustrated', async () => {
    const record = await keptStory(db);
    const code = storyPicturesCode();
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const result = await scene(
      resumed(openingState({ illustrated: false })),
      { clock, client, db, loadStoryPictures: code.load },
      function* () {
        yield* take(picturesActions.imageModelsListed.type);
        yield* put(storiesActions.storyLoaded(record));
        yield* call(wait, 10_000);
        // Nothing fetched on the way: the player turns pictures on ten seconds in.
        expect(code.fetched).toEqual([]);
        yield* put(gameActions.illustrationChosen(true));
        yield* take(picturesActions.pictureShown.type);
      },
    );

    expect(code.fetched).toEqual([10_000]);
    // Turned on once under way: its opening drawn.
    expect(putsOf(result.puts, picturesActions.pictureShown.type)).toHaveLength(1);
    expect(result.state.pictures.pictures[0]).toMatchObject({ status: 'shown', moment: 'opening' });
  });
});

describe('what comes while the code is on its way', () => {
  test('a moment asked for meanwhile is drawn once it has come', async () => {
    const record = await keptStory(db);
    const code = storyPicturesCode({ held: true });
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    // Illustrated from its start: the code is asked for at once, and held.
    const state = reduced(openingState(), savedAs(record), ...openingArrives, ...firstTurn);
    const result = await scene(
      state,
      { clock, client, db, loadStoryPictures: code.load },
      function* () {
        yield* take(picturesActions.imageModelsListed.type);
        yield* put(picturesActions.momentPictureRequested(1));
        yield* call(wait, 1_000);
        code.release();
        yield* take(picturesActions.pictureShown.type);
      },
    );

    expect(client.drawn).toHaveLength(1);
    expect(client.drawn[0]!.prompt).toContain(SECOND.slice(0, 40));
    expect(result.state.pictures.pictures[1]).toMatchObject({ status: 'shown', moment: 'moment' });
  });

  test('a story left meanwhile: its events are not acted on for the one taken up', async () => {
    const left = await keptStory(db);
    const taken = await keptStory(db);
    const code = storyPicturesCode({ held: true });
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const resumed: Story = {
      ...initialStory,
      ...NAMED_STORY,
      storyLog: [{ kind: 'paragraph', text: SECOND }],
      options: [],
      turnCount: 2,
    };
    const result = await scene(
      reduced(openingState(), savedAs(left)),
      { clock, client, db, loadStoryPictures: code.load },
      function* () {
        yield* take(picturesActions.imageModelsListed.type);
        // The left story's opening arrives; the player goes home and takes up another story.
        for (const action of openingArrives) yield* put(action);
        yield* put(gameActions.returnedHome());
        yield* put(gameActions.savedStoryResumed(resumed));
        yield* put(storiesActions.storyLoaded(taken));
        code.release();
        yield* take(picturesActions.storyPicturesFound.type);
        yield* call(wait, PICTURE_TIMEOUT_MS);
      },
    );

    // The opening that arrived for the story left is not drawn as the taken-up story's.
    expect(client.drawn).toEqual([]);
    expect(result.state.pictures.pictures).toEqual({});
  });

  test('code that could not be fetched: the models are still listed, and the next event fetches it again', async () => {
    const record = await keptStory(db);
    const code = storyPicturesCode({ failures: 1 });
    const client = fakePictureClient(clock, { draws: [drawnAfter(5_000)] });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const state = reduced(openingState(), savedAs(record), ...openingArrives, ...firstTurn);
      const result = await scene(
        state,
        { clock, client, db, loadStoryPictures: code.load },
        function* () {
          yield* take(picturesActions.imageModelsListed.type);
          yield* call(wait, 1_000);
          // The pictures' root lives on: another key is listed.
          yield* put(gameActions.apiKeyAccepted('sk-another'));
          yield* take(picturesActions.imageModelsListed.type);
          yield* put(picturesActions.momentPictureRequested(1));
          yield* take(picturesActions.pictureShown.type);
        },
      );

      expect(code.fetched).toEqual([0, 1_000]);
      // The player was told, until the code came.
      expect(putsOf(result.puts, picturesActions.storyFlowsMissing.type)).toHaveLength(1);
      expect(result.state.pictures.storyFlowsMissing).toBe(false);
      expect(client.listed).toHaveLength(2);
      expect(result.state.pictures.pictures[1]).toMatchObject({ status: 'shown' });
      expect(warn).toHaveBeenCalledWith(
        'The code that draws pictures could not be fetched; it is asked for again',
        expect.any(Error),
      );
    } finally {
      warn.mockRestore();
    }
  });
});

/**
 * Issue 41, parts 2 and 3: a story's pictures drawn beside the turn. Each scene runs the
 * pictures' root (picturesSaga) with expectSaga over the real root reducer, beside a script of
 * the game's and the stories' events; the provider is a plain-object client whose answers take
 * their time on a virtual clock, and the pictures are kept in a fake-indexeddb MyStoriesDB. A
 * picture's failure is its own: the turn never waits for it nor hears of it.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { UnknownAction } from '@reduxjs/toolkit';
import { call, put, select, take } from 'typed-redux-saga';
import type { RootState } from './pictureScenes';
import { gameActions, type Story } from '../../../src/features/game';
import { PICTURE_TIMEOUT_MS, PictureError } from '../../../src/features/llm';
import {
  picturesActions,
  selectStoryPictures,
  type PictureFailure,
  type StoryPictureState,
} from '../../../src/features/pictures';
import { pictureHandedOver } from '../../../src/features/pictures/handedOver';
import {
  PictureCompressionError,
  StorageError,
  openStoriesDb,
  pictureAt,
  picturesOf,
  storiesActions,
  type StoriesDb,
} from '../../../src/features/stories';
import { modelSettingsChosen } from '../../../src/features/settings';
import { wait } from '../../../src/shared/waits';
import { virtualClock, type VirtualClock } from '../../support/virtualClock';
import {
  COMPRESSED,
  OPENAI_LIST,
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
  refusedAfter,
  savedAs,
  scene,
  type DrawAnswer,
  type KeptRecord,
} from './pictureScenes';

/** Tests start at a date, so a retry time is a real instant. */
const START = Date.UTC(2026, 10, 28, 10, 0, 0);

let db: StoriesDb;
let clock: VirtualClock;
beforeEach(async () => {
  db = await openStoriesDb(new IDBFactory());
  clock = virtualClock({ start: START });
});
afterEach(() => db.close());

/** The image models listed from the provider's list, as the root does with the key in. */
function* modelsListed() {
  yield* take(picturesActions.imageModelsListed.type);
}

/** The models listed, then the story's first save reported (as it comes with its opening). */
function* savedWhileOpening(record: KeptRecord) {
  yield* modelsListed();
  yield* put(savedAs(record));
}

/** What the store says of the pictures now. */
function* picturesNow() {
  return { ...(yield* select(selectStoryPictures)) };
}

/** A story being played that MyStoriesDB keeps: its first save is reported by the script. */
async function openingOfSavedStory(story: Partial<Story> = {}) {
  const record = await keptStory(db);
  return { record, state: openingState(story) };
}

const failureOfTurn = (state: RootState, turn: number): PictureFailure | null => {
  const picture = state.pictures.pictures[turn];
  return picture?.status === 'failed' ? picture.failure : null;
};

/** A scene of the opening with one answer from the provider; the script waits for its end. */
async function openingWith(answer: DrawAnswer, until: string = picturesActions.pictureFailed.type) {
  const { record, state } = await openingOfSavedStory();
  const client = fakePictureClient(clock, { draws: [answer] });
  const result = await scene(state, { clock, client, db }, function* () {
    yield* savedWhileOpening(record);
    yield* put(openingArrives[0]);
    yield* take(until);
  });
  return { ...result, client, record };
}

describe('a picture drawn beside the turn', () => {
  test('the opening’s picture arrives after the turn went on, and is kept and shown', async () => {
    const { record, state } = await openingOfSavedStory();
    const client = fakePictureClient(clock, { draws: [drawnAfter(20_000)] });
    const seen: { at: number; phase: string; picture: StoryPictureState | undefined }[] = [];
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      for (const action of [...openingArrives, ...firstTurn]) yield* put(action);
      // A second later: the turn is played, the picture still being drawn.
      yield* call(wait, 1_000);
      const { game } = (yield* select((all: RootState) => all)) as RootState;
      seen.push({ at: clock.now(), phase: game.turn.phase, picture: (yield* picturesNow())[0] });
      yield* take(picturesActions.pictureShown.type);
      seen.push({ at: clock.now(), phase: '', picture: (yield* picturesNow())[0] });
    });

    // The turn was played to its next choice while the picture was still being drawn.
    expect(seen[0]).toEqual({
      at: START + 1_000,
      phase: 'choosing',
      picture: { status: 'drawing', moment: 'opening' },
    });
    expect(result.state.game.story.storyLog.map((entry) => entry.text)).toEqual([
      OPENING,
      'Light the lamp',
      SECOND,
    ]);
    // Shown 20 s later, with the opening's words as its alt text.
    expect(seen[1]).toEqual({
      at: START + 20_000,
      phase: '',
      picture: {
        status: 'shown',
        storyId: record.id,
        moment: 'opening',
        width: 768,
        height: 512,
        alt: OPENING,
      },
    });
    // Asked of the provider once, for the opening, in the story's words, with the player's key.
    expect(client.drawn).toHaveLength(1);
    expect(client.drawn[0]).toMatchObject({
      apiKey: 'sk-test',
      model: 'gpt-image-1-mini',
      size: 'landscape',
    });
    expect(client.drawn[0]!.prompt).toContain('salt-white braid');
    expect(client.drawn[0]!.prompt).toContain('lighthouse lamp');
    expect(client.compressed).toHaveLength(1);
    // Kept under the story's id and the opening's turn: the compressed WebP, not the PNG.
    const kept = await pictureAt(db, record.id, 0);
    expect(kept).toMatchObject({
      moment: 'opening',
      mediaType: 'image/webp',
      width: 768,
      height: 512,
      alt: OPENING,
      model: 'gpt-image-1-mini',
      createdAt: new Date(START + 20_000).toISOString(),
    });
    // Nothing of the game was put by the pictures' flows.
    const script = new Set<UnknownAction>([...openingArrives, ...firstTurn]);
    const theirs = result.puts.filter(
      (action) => !script.has(action) && !storiesActions.storySaved.match(action),
    );
    expect(theirs.map((action) => action.type)).toEqual([
      picturesActions.flowsStarted.type,
      picturesActions.storyFlowsStarted.type,
      picturesActions.imageModelsListed.type,
      picturesActions.pictureDrawingStarted.type,
      // The places beyond the browser are told it is kept, under its story's record.
      storiesActions.pictureKept.type,
      picturesActions.pictureShown.type,
    ]);
    expect(putsOf(result.puts, storiesActions.pictureKept.type)).toEqual([
      storiesActions.pictureKept({ storyId: record.id, turn: 0 }),
    ]);
    // Its view is handed the kept WebP, to show without reading it back.
    const handed = pictureHandedOver(record.id, 0);
    expect(handed).toMatchObject({ type: 'image/webp', size: kept!.bytes });
  });

  test('a refused picture fails as refused, with the provider’s words, and the turn is untouched', async () => {
    const { record, state } = await openingOfSavedStory();
    const refusal = new PictureError('refused', 'The picture was not drawn (refused, HTTP 400)', {
      status: 400,
      code: 'moderation_blocked',
      providerMessage: 'Your request was rejected by the safety system.',
    });
    const client = fakePictureClient(clock, { draws: [refusedAfter(4_000, refusal)] });
    const played = [...openingArrives, ...firstTurn];
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      for (const action of played) yield* put(action);
      yield* take(picturesActions.pictureFailed.type);
    });

    expect(result.state.pictures.pictures[0]).toEqual({
      status: 'failed',
      moment: 'opening',
      failure: {
        kind: 'refused',
        retryAt: null,
        providerMessage: 'Your request was rejected by the safety system.',
      },
    });
    // The game is exactly what its own events made of it.
    expect(result.state.game).toEqual(reduced(state, ...played).game);
    expect(result.puts.filter((action) => action.type.startsWith('game/'))).toEqual(played);
    expect(await picturesOf(db, record.id)).toEqual([]);
  });

  test('Try again after a failure draws it anew, and the second picture is shown', async () => {
    const { record, state } = await openingOfSavedStory();
    const refusal = new PictureError('unreachable', 'No answer');
    const client = fakePictureClient(clock, {
      draws: [refusedAfter(1_000, refusal), drawnAfter(5_000)],
    });
    const seen: StoryPictureState[] = [];
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      yield* put(openingArrives[0]);
      yield* take(picturesActions.pictureFailed.type);
      seen.push((yield* picturesNow())[0]!);
      yield* put(picturesActions.pictureRetryRequested(0));
      yield* take(picturesActions.pictureDrawingStarted.type);
      seen.push((yield* picturesNow())[0]!);
      yield* take(picturesActions.pictureShown.type);
    });

    expect(seen.map((picture) => picture.status)).toEqual(['failed', 'drawing']);
    expect(result.state.pictures.pictures[0]).toMatchObject({ status: 'shown', alt: OPENING });
    expect(client.drawn).toHaveLength(2);
    expect(client.drawn[1]!.prompt).toBe(client.drawn[0]!.prompt);
    expect(clock.now()).toBe(START + 6_000);
    expect(putsOf(result.puts, picturesActions.pictureDrawingStarted.type)).toHaveLength(2);
    expect(await pictureAt(db, record.id, 0)).toMatchObject({ moment: 'opening' });
  });

  test('a picture that takes longer than PICTURE_TIMEOUT_MS fails as timeout, its request aborted', async () => {
    const { client, state } = await openingWith(neverAnswers);

    expect(failureOfTurn(state, 0)).toEqual({
      kind: 'timeout',
      retryAt: null,
      providerMessage: null,
    });
    expect(clock.now()).toBe(START + PICTURE_TIMEOUT_MS);
    expect(clock.slept).toContain(PICTURE_TIMEOUT_MS);
    expect(client.drawn[0]!.signal.aborted).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  test('a per-minute limit that names its wait says when to try again, on the context’s clock', async () => {
    const limited = new PictureError('rateLimited', 'The picture was not drawn (rateLimited)', {
      status: 429,
      retryAfterMs: 12_000,
      providerMessage: 'Rate limit reached for gpt-image-1 on images per minute (IPM).',
    });
    const { state } = await openingWith(refusedAfter(3_000, limited));

    expect(failureOfTurn(state, 0)).toEqual({
      kind: 'rateLimited',
      retryAt: START + 3_000 + 12_000,
      providerMessage: 'Rate limit reached for gpt-image-1 on images per minute (IPM).',
    });
  });

  test.each([
    ['retired', new PictureError('retired', 'The model `gpt-image-1-mini` does not exist')],
    ['noCredit', new PictureError('noCredit', 'insufficient_quota')],
    ['unverified', new PictureError('unverified', 'Your organization must be verified')],
    ['keyRefused', new PictureError('keyRefused', 'Incorrect API key')],
  ] as const)(
    'the provider’s %s refusal is the picture’s failure of that kind',
    async (kind, error) => {
      const { state } = await openingWith(refusedAfter(1_000, error));
      expect(failureOfTurn(state, 0)?.kind).toBe(kind);
    },
  );

  test('a retired model has the list read again: the default stands in, with its notice, for Try again', async () => {
    const { record, state } = await openingOfSavedStory();
    const gone = new PictureError('retired', 'The model `gpt-image-1-mini` does not exist');
    // The list as the provider has it now: the mini model gone, gpt-image-1 left.
    const now = {
      data: OPENAI_LIST.data.filter((model) => model.id !== 'gpt-image-1-mini'),
    };
    const lists = [OPENAI_LIST, now];
    const client = fakePictureClient(clock, {
      draws: [refusedAfter(1_000, gone), drawnAfter(1_000)],
      list: () => Promise.resolve(lists[Math.min(client.listed.length - 1, 1)]),
    });
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      yield* put(openingArrives[0]);
      yield* take(picturesActions.pictureFailed.type);
      yield* take(picturesActions.imageModelsListed.type);
      yield* put(picturesActions.pictureRetryRequested(0));
      yield* take(picturesActions.pictureShown.type);
    });
    expect(client.listed).toHaveLength(2);
    expect(result.state.pictures.imageModels).toMatchObject({
      status: 'listed',
      model: 'gpt-image-1',
      replaced: 'gpt-image-1-mini',
    });
    expect(client.drawn.map((request) => request.model)).toEqual([
      'gpt-image-1-mini',
      'gpt-image-1',
    ]);
  });

  test('a picture asked while the list is still the last provider’s waits for the new one’s', async () => {
    const { record, state } = await openingOfSavedStory();
    const client = fakePictureClient(clock, { draws: [drawnAfter(1_000)] });
    const flux = 'black-forest-labs/FLUX.1-schnell';
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      // The player has just changed provider: Together's list is being read.
      yield* put(modelSettingsChosen({ provider: 'together', model: 'any', baseUrl: '' }));
      yield* put(openingArrives[0]);
      yield* call(wait, 5_000);
      yield* put(
        picturesActions.imageModelsListed({
          provider: 'together',
          models: [{ id: flux, label: 'FLUX.1 [schnell]' }],
          model: flux,
          replaced: null,
          named: false,
        }),
      );
      // Shown or failed (not drawn at all, the script would wait here until jest's limit).
      yield* take([picturesActions.pictureShown.type, picturesActions.pictureFailed.type]);
    });
    // Drawn by Together's model, not OpenAI's asked of Together, nor failed as retired.
    expect(client.drawn.map((request) => [request.provider.id, request.model])).toEqual([
      ['together', flux],
    ]);
    expect(putsOf(result.puts, picturesActions.pictureFailed.type)).toEqual([]);
    expect(putsOf(result.puts, picturesActions.pictureShown.type)).toHaveLength(1);
  });

  test('an answer the compression cannot read fails as notAnImage', async () => {
    const { record, state } = await openingOfSavedStory();
    const client = fakePictureClient(clock, {
      compress: () => Promise.reject(new PictureCompressionError('notAnImage', 'not an image')),
    });
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      yield* put(openingArrives[0]);
      yield* take(picturesActions.pictureFailed.type);
    });
    expect(failureOfTurn(result.state, 0)?.kind).toBe('notAnImage');
    expect(await picturesOf(db, record.id)).toEqual([]);
  });

  test('an opening refused before its story was ever saved may be tried again at once', async () => {
    const state = openingState();
    const refusal = new PictureError('rateLimited', 'Rate limit reached', { retryAfterMs: 1_000 });
    const client = fakePictureClient(clock, {
      draws: [refusedAfter(1_000, refusal), refusedAfter(1_000, refusal)],
    });
    const result = await scene(state, { clock, client, db }, function* () {
      yield* put(openingArrives[0]);
      yield* take(picturesActions.pictureFailed.type);
      // No save has come: the failed picture's flow has ended all the same.
      yield* put(picturesActions.pictureRetryRequested(0));
      yield* take(picturesActions.pictureFailed.type);
    });
    expect(client.drawn).toHaveLength(2);
    expect(failureOfTurn(result.state, 0)?.kind).toBe('rateLimited');
  });

  test('an opening whose story’s first save fails has nowhere to be kept: notKept', async () => {
    const state = openingState();
    const client = fakePictureClient(clock);
    const result = await scene(state, { clock, client, db }, function* () {
      yield* put(openingArrives[0]);
      yield* put(storiesActions.storySaveFailed('quota'));
      yield* take(picturesActions.pictureFailed.type);
    });
    expect(failureOfTurn(result.state, 0)?.kind).toBe('notKept');
  });

  test('a picture the browser will not keep (the story deleted meanwhile) fails as notKept', async () => {
    // The store names a saved record MyStoriesDB does not hold.
    const record: KeptRecord = { id: 404, walletAddress: '0x1', revision: 1, lastSaved: '' };
    const state = openingState();
    const client = fakePictureClient(clock);
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      yield* put(openingArrives[0]);
      yield* take(picturesActions.pictureFailed.type);
    });
    expect(failureOfTurn(result.state, 0)).toEqual({
      kind: 'notKept',
      retryAt: null,
      providerMessage: null,
    });
  });

  test('MyStoriesDB that cannot be opened fails the picture as notKept', async () => {
    const { state } = await openingOfSavedStory();
    const client = fakePictureClient(clock);
    const result = await scene(
      state,
      {
        clock,
        client,
        db: () => Promise.reject(new StorageError('quota', 'The quota was exceeded')),
      },
      function* () {
        yield* savedWhileOpening({ id: 1, walletAddress: '0x1', revision: 1, lastSaved: '' });
        yield* put(openingArrives[0]);
        yield* take(picturesActions.pictureFailed.type);
      },
    );
    expect(failureOfTurn(result.state, 0)?.kind).toBe('notKept');
  });

  test('an unforeseen error is the picture’s (other), reported for the developer', async () => {
    const reported = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { state } = await openingWith(refusedAfter(1_000, new TypeError('x is undefined')));
      expect(failureOfTurn(state, 0)?.kind).toBe('other');
      expect(reported).toHaveBeenCalledWith('A picture failed', expect.any(TypeError));
    } finally {
      reported.mockRestore();
    }
  });
});

describe('a new story’s opening', () => {
  test('waits for the story’s first save: kept under the id that save gives', async () => {
    // MyStoriesDB holds the story, but the store has not heard of its save yet.
    const record = await keptStory(db);
    const state = openingState();
    const client = fakePictureClient(clock, { draws: [drawnAfter(20_000)] });
    const seen: { at: number; picture: StoryPictureState | undefined }[] = [];
    const result = await scene(state, { clock, client, db }, function* () {
      yield* modelsListed();
      yield* put(openingArrives[0]);
      // Long after the picture was drawn and compressed: it waits for the story's id.
      yield* call(wait, 60_000);
      seen.push({ at: clock.now(), picture: (yield* picturesNow())[0] });
      // A save of another story (an older generation) is not this one's.
      yield* put(savedAs({ ...record, id: record.id + 1 }, 7));
      yield* put(savedAs(record));
      yield* take(picturesActions.pictureShown.type);
    });

    expect(client.compressed).toHaveLength(1);
    expect(seen).toEqual([
      { at: START + 60_000, picture: { status: 'drawing', moment: 'opening' } },
    ]);
    expect(result.state.pictures.pictures[0]).toMatchObject({ status: 'shown' });
    expect((await picturesOf(db, record.id)).map((picture) => picture.turn)).toEqual([0]);
    expect(await picturesOf(db, record.id + 1)).toEqual([]);
  });

  test('is not drawn for a story that is not illustrated', async () => {
    const { state } = await openingOfSavedStory({ illustrated: false });
    const client = fakePictureClient(clock);
    const result = await scene(state, { clock, client, db }, function* () {
      yield* modelsListed();
      yield* put(openingArrives[0]);
      yield* call(wait, PICTURE_TIMEOUT_MS);
    });
    expect(client.drawn).toEqual([]);
    expect(result.state.pictures.pictures).toEqual({});
  });
});

describe('a story left while its picture is drawn', () => {
  test.each([
    ['a new story', gameActions.newGameStarted()],
    ['the way home', gameActions.returnedHome()],
  ])(
    '%s cancels the drawing: its request aborted, nothing shown or failed',
    async (_name, leave) => {
      const { record, state } = await openingOfSavedStory();
      const client = fakePictureClient(clock, { draws: [neverAnswers] });
      const result = await scene(state, { clock, client, db }, function* () {
        yield* savedWhileOpening(record);
        yield* put(openingArrives[0]);
        // The request is under way (the provider never answers it)...
        yield* call(wait, 1_000);
        yield* put(leave);
        // Time passes well beyond the picture's own limit.
        yield* call(wait, 2 * PICTURE_TIMEOUT_MS);
      });

      expect(client.drawn).toHaveLength(1);
      expect(client.drawn[0]!.signal.aborted).toBe(true);
      expect(result.state.pictures.pictures).toEqual({});
      expect(putsOf(result.puts, picturesActions.pictureFailed.type)).toEqual([]);
      expect(putsOf(result.puts, picturesActions.pictureShown.type)).toEqual([]);
      expect(await picturesOf(db, record.id)).toEqual([]);
    },
  );

  test('its pictures handed to views that had not shown them yet are let go', async () => {
    const { record, state } = await openingOfSavedStory();
    const kept = COMPRESSED();
    const client = fakePictureClient(clock, {
      draws: [drawnAfter(1_000)],
      compress: () => Promise.resolve(kept),
    });
    const handed: (Blob | undefined)[] = [];
    await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      yield* put(openingArrives[0]);
      yield* take(picturesActions.pictureShown.type);
      // No view took it (none is on the page here): the compression's very Blob waits.
      handed.push(pictureHandedOver(record.id, 0));
      yield* put(gameActions.returnedHome());
      yield* call(wait, 1_000);
      handed.push(pictureHandedOver(record.id, 0));
    });
    expect(handed).toEqual([kept.blob, undefined]);
  });

  test('the next story’s opening is drawn by its own flow, and kept under its own record', async () => {
    const { record, state } = await openingOfSavedStory();
    const next = await keptStory(db, { chosenCharacter: 'Ned Quay' });
    const client = fakePictureClient(clock, { draws: [neverAnswers, drawnAfter(1_000)] });
    const nextOpening = 'Ned woke on the wreck, the lighthouse dark above him.';
    const nextStory = [
      gameActions.newGameStarted(),
      // The game's word that it took the new story: the saved record is let go.
      gameActions.newStoryBegun(),
      gameActions.genreChosen('Gothic mystery'),
      gameActions.portraitChosen(4),
      gameActions.illustrationChosen(true),
      gameActions.characterNamed('Ned Quay'),
      gameActions.openingReceived({ storyStart: nextOpening, options: [] }),
    ];
    const result = await scene(state, { clock, client, db }, function* () {
      yield* savedWhileOpening(record);
      yield* put(openingArrives[0]);
      yield* call(wait, 1_000);
      for (const action of nextStory) yield* put(action);
      yield* call(wait, 10_000);
      yield* put(savedAs(next, 1));
      yield* take(picturesActions.pictureShown.type);
    });

    expect(client.drawn).toHaveLength(2);
    expect(client.drawn[0]!.signal.aborted).toBe(true);
    expect(client.drawn[1]!.prompt).toContain('Ned woke on the wreck');
    expect(result.state.pictures.pictures).toEqual({
      0: {
        status: 'shown',
        storyId: next.id,
        moment: 'opening',
        width: 768,
        height: 512,
        alt: nextOpening,
      },
    });
    expect(await picturesOf(db, record.id)).toEqual([]);
    expect((await picturesOf(db, next.id)).map((picture) => picture.alt)).toEqual([nextOpening]);
  });
});

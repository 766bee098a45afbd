/**
 * The pictures' flows as a story plays them, for expectSaga: a plain-object picture client whose
 * answers take their time on the virtual clock, a MyStoriesDB in fake-indexeddb, a story under
 * way, and a scene that runs the pictures' root beside a script of the game's events and ends
 * when the script does (no timeout, no wall clock).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { call, cancel, fork } from 'typed-redux-saga';
import { rootReducer as appReducer, type RootState as AppState } from '../../../src/app/store';
import { initialPicturesState, picturesSlice } from '../../../src/features/pictures';
import type { StoryOption } from '../../../src/engine/types';
import { gameActions, type Story } from '../../../src/features/game';
import type { ModelListRequest, Picture, PictureRequest } from '../../../src/features/llm';
import {
  picturesSaga,
  type KeptImage,
  type PictureClient,
  type PicturesContext,
} from '../../../src/features/pictures';
import {
  saveStory,
  storiesActions,
  type StoriesDb,
  type StoryDraft,
} from '../../../src/features/stories';
import { savedStory } from '../../fixtures/savedStories';
import { webpBytes } from '../../fixtures/storyPictures';
import { appStateWith, choiceResolved, segmentOffered } from '../../fixtures/games';
import { contextProviders } from '../../support/sagaReplay';
import type { VirtualClock } from '../../support/virtualClock';

/** The app's reducer with the pictures' slice plugged in, as their flows do (injectSlice). */
export const rootReducer = appReducer.inject(picturesSlice);
export type RootState = ReturnType<typeof rootReducer>;

/** The app's state with the pictures' slice in its first state. */
export const withPictures = (state: AppState): RootState => ({
  pictures: initialPicturesState,
  ...state,
});

export const WALLET = '0xabc0000000000000000000000000000000000001';

/** OpenAI's live list as GET /models returns it: two image models beside text and audio ones. */
export const OPENAI_LIST = {
  object: 'list',
  data: [
    { id: 'gpt-5.4-mini', object: 'model', created: 1_760_000_000, owned_by: 'system' },
    { id: 'gpt-image-1', object: 'model', created: 1_745_000_000, owned_by: 'system' },
    { id: 'gpt-image-1-mini', object: 'model', created: 1_755_000_000, owned_by: 'system' },
    { id: 'whisper-1', object: 'model', created: 1_677_000_000, owned_by: 'openai-internal' },
  ],
};

export const OPENING = 'The lighthouse lamp had been dark for a week when Mira climbed to it.';
export const SECOND = 'Below the lamp, the sea had written a name in the salt on the glass.';

export const OPTIONS: StoryOption[] = [
  { text: 'Light the lamp', risk: 'low', alignment: 'moral', traitAlignment: 'kind' },
  { text: 'Read the name', risk: 'medium', alignment: 'neutral', traitAlignment: 'curious' },
];

/** An illustrated story on the naming screen, its hero named next. */
export const NAMED_STORY: Partial<Story> = {
  chosenGenre: 'Gothic mystery',
  chosenImage: 4,
  chosenCharacter: 'Mira Vale',
  characterGender: 'woman',
  characterBio: 'A lighthouse keeper who hears the sea talk.',
  characterFacialFeatures: ['grey eyes', 'a salt-white braid'],
  illustrated: true,
};

/** The app on the naming screen of an illustrated story, OpenAI's key accepted. */
export function namingState(story: Partial<Story> = {}): RootState {
  return withPictures(
    appStateWith(
      { turn: { phase: 'naming' }, story: { ...NAMED_STORY, ...story } },
      { provider: 'openai', language: 'en' },
    ),
  );
}

/** The state after `actions`, as the store reduces them. */
export const reduced = (state: RootState, ...actions: UnknownAction[]) =>
  actions.reduce((before, action) => rootReducer(before, action), state);

/** The opening being written: the name given (the store reduces it before a flow hears it). */
export const openingState = (story: Partial<Story> = {}) =>
  reduced(namingState(story), gameActions.characterNamed('Mira Vale'));

/** The opening as the game's flow puts it: the paragraph and its choices, then its summary. */
export const openingArrives = [
  gameActions.openingReceived({ storyStart: OPENING, options: OPTIONS }),
  gameActions.openingSummaryReceived('Mira climbed to the dark lamp.'),
] as const;

/** The game's first turn after the opening, as its flow puts it: the choice, its roll, the next paragraph. */
export const firstTurn: UnknownAction[] = [
  ...choiceResolved({
    turn: 1,
    option: OPTIONS[0]!,
    freeText: false,
    outcome: 'success',
    scenarioType: 'standard',
    outcomesSoFar: ['success'],
  }),
  ...segmentOffered(SECOND, OPTIONS),
];

// ---- MyStoriesDB ----

/** A story kept in MyStoriesDB (the record the picture is kept under), and its record's stamp. */
export async function keptStory(db: StoriesDb, game: Partial<Story> = {}) {
  const {
    id: _id,
    walletAddress: _owner,
    lastSaved: _lastSaved,
    ...record
  } = savedStory({
    game,
  });
  const draft: StoryDraft = { ...record };
  const saved = await saveStory(db, draft, WALLET);
  if (!saved.saved) throw new Error(`not saved: ${saved.reason}`);
  return {
    id: saved.id,
    walletAddress: WALLET,
    revision: saved.revision,
    lastSaved: saved.lastSaved,
  };
}

export type KeptRecord = Awaited<ReturnType<typeof keptStory>>;

/** The save flow's report of a save of the story being played (its first, for a new story). */
export const savedAs = (record: KeptRecord, storyGeneration = 0) =>
  storiesActions.storySaved({ ...record, manual: false, storyGeneration });

// ---- the provider ----

/** One answer of the provider to a picture request, on the test's clock. */
export type DrawAnswer = (request: PictureRequest, clock: VirtualClock) => Promise<Picture>;

/** The PNG the provider draws (what is kept is the compression's WebP). */
const drawnPicture = (): Picture => ({
  image: new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], {
    type: 'image/png',
  }),
  mediaType: 'image/png',
});

/** A picture drawn `ms` after it was asked for (a request aborted meanwhile never answers). */
export const drawnAfter =
  (ms: number): DrawAnswer =>
  (request, clock) =>
    clock.sleep(ms, request.signal).then(drawnPicture);

/** A refusal `ms` after the picture was asked for. */
export const refusedAfter =
  (ms: number, error: unknown): DrawAnswer =>
  (request, clock) =>
    clock.sleep(ms, request.signal).then(() => Promise.reject(error));

/** A provider that never answers, as fetch does until its request is aborted. */
export const neverAnswers: DrawAnswer = (request) =>
  new Promise<Picture>((_resolve, reject) => {
    request.signal.addEventListener('abort', () =>
      reject(new DOMException('The request was aborted', 'AbortError')),
    );
  });

/** The kept image the browser's compression makes: a 768×512 WebP. */
export const COMPRESSED: () => KeptImage = () => ({
  blob: new Blob([webpBytes(4096, 3)], { type: 'image/webp' }),
  width: 768,
  height: 512,
});

export interface FakePictureClient extends PictureClient {
  /** Every picture request, in the order asked. */
  readonly drawn: PictureRequest[];
  /** Every list request, in the order asked. */
  readonly listed: ModelListRequest[];
  /** Every image handed to the compression. */
  readonly compressed: Blob[];
}

/**
 * The provider as a plain object: its model list, and its picture answers in turn (the last one
 * again once they run out), each then compressed by `compress` as the page's client does.
 */
export function fakePictureClient(
  clock: VirtualClock,
  {
    draws = [drawnAfter(20_000)],
    list = () => Promise.resolve(OPENAI_LIST),
    compress = () => Promise.resolve(COMPRESSED()),
  }: {
    draws?: DrawAnswer[];
    list?: (request: ModelListRequest) => Promise<unknown>;
    compress?: (image: Blob) => Promise<KeptImage>;
  } = {},
): FakePictureClient {
  const drawn: PictureRequest[] = [];
  const listed: ModelListRequest[] = [];
  const compressed: Blob[] = [];
  return {
    drawn,
    listed,
    compressed,
    listImageModels(request) {
      listed.push(request);
      return list(request);
    },
    async draw(request) {
      const answer = draws[Math.min(drawn.length, draws.length - 1)]!;
      drawn.push(request);
      const { image } = await answer(request, clock);
      compressed.push(image);
      return compress(image);
    },
  };
}

// ---- a scene ----

export interface SceneResult {
  state: RootState;
  /** Every action put, the script's and the flows', in order. */
  puts: UnknownAction[];
}

/**
 * The pictures' root run beside `script` (the game's and the stories' events, and the test's
 * looks at the store), over the real root reducer from `state`; it ends when the script does,
 * the pictures' flows with it.
 */
export async function scene(
  state: RootState,
  {
    clock,
    client,
    db,
    loadStoryPictures,
  }: {
    clock: VirtualClock;
    client: PictureClient;
    db: StoriesDb | (() => Promise<StoriesDb>);
    /** How the story pictures' code is fetched; at once unless a test says. */
    loadStoryPictures?: PicturesContext['loadStoryPictures'];
  },
  script: () => Generator,
): Promise<SceneResult> {
  function* playing() {
    const flows = yield* fork(picturesSaga);
    yield* call(script);
    yield* cancel(flows);
  }
  const openStoriesDb = typeof db === 'function' ? db : () => Promise.resolve(db);
  const result = await expectSaga(playing)
    .withReducer(rootReducer, state)
    .provide(
      contextProviders({
        clock,
        pictureClient: client,
        openStoriesDb,
        ...(loadStoryPictures && { loadStoryPictures }),
      }),
    )
    .run(false);
  // Into the store: not the story's events that the flows hand on to a story's flow (a channel).
  const puts = (result.effects.put ?? [])
    .map((effect) => (effect as { payload: { action: UnknownAction; channel?: unknown } }).payload)
    .filter(({ channel }) => !channel)
    .map(({ action }) => action);
  return { state: result.storeState as RootState, puts };
}

/** The actions put of a type. */
export const putsOf = (puts: UnknownAction[], type: string) =>
  puts.filter((action) => action.type === type);

/**
 * Issue 41, part 1: the models the player's provider draws with, listed when the key is accepted
 * (listImageModels run as the game runs it, expectSaga on a virtual clock), and the pictures'
 * slice over a real store (makeStore), asserted through its selectors. Also parseStory's reading
 * of Story.illustrated, the per-story choice (older saves have none).
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { expectSaga } from 'redux-saga-test-plan';
import { makeStore, type AppStore } from '../../../src/app/store';
import { rootReducer, type RootState } from './pictureScenes';
import { gameActions, initialStory, isStoryProblem, parseStory } from '../../../src/features/game';
import type { ImageModel } from '../../../src/features/llm';
import {
  IMAGE_MODELS_TIMEOUT_MS,
  listImageModels,
  picturesActions,
  selectCanIllustrate,
  selectImageModels,
  selectPictureAt,
  selectPictureModel,
  selectStoryPictures,
  type ImageModels,
} from '../../../src/features/pictures';
import { modelSettingsChosen } from '../../../src/features/settings';
import { appStateWith } from '../../fixtures/games';
import { contextProviders } from '../../support/sagaReplay';
import { virtualClock } from '../../support/virtualClock';
import { OPENAI_LIST, fakePictureClient } from './pictureScenes';

async function listed(
  provider: string,
  list: () => Promise<unknown> = () => Promise.resolve(OPENAI_LIST),
  before: ImageModels = { status: 'unknown' },
  imageModel = '',
) {
  const clock = virtualClock();
  const client = fakePictureClient(clock, { list });
  const state: RootState = {
    ...appStateWith({ turn: { phase: 'choosingGenre' } }, { provider, imageModel }),
    pictures: { imageModels: before, pictures: {}, storyFlows: false, storyFlowsMissing: false },
  };
  const result = await expectSaga(listImageModels)
    .withReducer(rootReducer, state)
    .provide(contextProviders({ clock, pictureClient: client }))
    .run(false);
  const after = result.storeState as RootState;
  return {
    models: after.pictures.imageModels,
    named: after.settings.imageModel,
    canIllustrate: selectCanIllustrate(after),
    client,
    clock,
  };
}

const MINI: ImageModel = {
  id: 'gpt-image-1-mini',
  label: 'gpt-image-1-mini',
  created: 1_755_000_000,
};
const ONE: ImageModel = { id: 'gpt-image-1', label: 'gpt-image-1', created: 1_745_000_000 };

describe('the image models of the player’s provider', () => {
  test('OpenAI’s list: its image models, the cheapest family’s newest by default', async () => {
    const { models, client } = await listed('openai');
    expect(models).toEqual({
      status: 'listed',
      provider: 'openai',
      models: [ONE, MINI],
      model: 'gpt-image-1-mini',
      replaced: null,
      named: false,
    });
    expect(client.listed).toHaveLength(1);
    expect(client.listed[0]).toMatchObject({ apiKey: 'sk-test' });
    expect(client.listed[0]!.provider.id).toBe('openai');
    // The request's signal is let go once the list is read.
    expect(client.listed[0]!.signal.aborted).toBe(true);
  });

  test('a model chosen earlier that the list still holds is kept', async () => {
    const before: ImageModels = {
      status: 'listed',
      provider: 'openai',
      models: [ONE, MINI],
      model: 'gpt-image-1',
      replaced: null,
      named: false,
    };
    const { models } = await listed('openai', undefined, before);
    expect(models).toMatchObject({ status: 'listed', model: 'gpt-image-1', replaced: null });
  });

  test('a chosen model the list no longer holds: the default, and the game says which was replaced', async () => {
    const before: ImageModels = {
      status: 'listed',
      provider: 'openai',
      models: [{ id: 'gpt-image-0', label: 'gpt-image-0' }],
      model: 'gpt-image-0',
      replaced: null,
      named: false,
    };
    const { models } = await listed('openai', undefined, before);
    expect(models).toMatchObject({
      status: 'listed',
      model: 'gpt-image-1-mini',
      replaced: 'gpt-image-0',
    });
  });

  test('a model chosen with another provider is not this one’s', async () => {
    const before: ImageModels = {
      status: 'listed',
      provider: 'together',
      models: [{ id: 'gpt-image-0', label: 'gpt-image-0' }],
      model: 'gpt-image-0',
      replaced: null,
      named: false,
    };
    const { models } = await listed('openai', undefined, before);
    expect(models).toMatchObject({ model: 'gpt-image-1-mini', replaced: null });
  });

  test.each(['groq', 'local'])(
    '%s: no pictures offered, and its list is not asked',
    async (provider) => {
      const { models, client } = await listed(provider);
      expect(models).toEqual({ status: 'none', provider });
      expect(client.listed).toEqual([]);
    },
  );

  describe('a Custom server: the player names the model, its list only suggests', () => {
    const CUSTOM_LIST = {
      object: 'list',
      data: [
        { id: 'llama-3.3-70b', object: 'model' },
        { id: 'flux-schnell', object: 'model', created: 1_700_000_000 },
        { id: 'house-painter', object: 'model', type: 'image', created: 1_600_000_000 },
      ],
    };

    test('nothing named yet: the list’s image models suggested, none named for the player', async () => {
      const { models, named, canIllustrate, client } = await listed('custom', () =>
        Promise.resolve(CUSTOM_LIST),
      );
      expect(models).toEqual({
        status: 'listed',
        provider: 'custom',
        models: [
          { id: 'flux-schnell', label: 'flux-schnell', created: 1_700_000_000 },
          { id: 'house-painter', label: 'house-painter', created: 1_600_000_000 },
        ],
        model: '',
        replaced: null,
        named: true,
      });
      // A picture is billed to the player: only they name what draws it.
      expect([named, canIllustrate]).toEqual(['', false]);
      expect(client.listed[0]!.provider.id).toBe('custom');
    });

    test('a name the list does not hold is the player’s, kept and drawn with', async () => {
      const { models, named, canIllustrate } = await listed(
        'custom',
        () => Promise.resolve(CUSTOM_LIST),
        undefined,
        'my-painter',
      );
      expect(models).toMatchObject({ status: 'listed', named: true, replaced: null });
      expect(named).toBe('my-painter');
      expect(canIllustrate).toBe(true);
    });

    test('a list that cannot be read suggests nothing, and pictures wait for a name', async () => {
      const { models, named, canIllustrate } = await listed('custom', () =>
        Promise.reject(new Error('HTTP 404')),
      );
      expect(models).toEqual({
        status: 'listed',
        provider: 'custom',
        models: [],
        model: '',
        replaced: null,
        named: true,
      });
      expect([named, canIllustrate]).toEqual(['', false]);
    });
  });

  test('a list that holds no image model: none', async () => {
    const { models } = await listed('openai', () =>
      Promise.resolve({ object: 'list', data: [{ id: 'gpt-5.4-mini', object: 'model' }] }),
    );
    expect(models).toEqual({ status: 'none', provider: 'openai' });
  });

  test('a list refused: none, and nothing else', async () => {
    const { models } = await listed('openai', () => Promise.reject(new Error('HTTP 403')));
    expect(models).toEqual({ status: 'none', provider: 'openai' });
  });

  test('a list that does not come in IMAGE_MODELS_TIMEOUT_MS: none, its request aborted', async () => {
    let signal: AbortSignal | undefined;
    const clock = virtualClock();
    const client = fakePictureClient(clock, {
      list: (request) => {
        signal = request.signal;
        return new Promise(() => {});
      },
    });
    const result = await expectSaga(listImageModels)
      .withReducer(rootReducer, appStateWith({}, { provider: 'openai' }))
      .provide(contextProviders({ clock, pictureClient: client }))
      .run(false);
    expect((result.storeState as RootState).pictures.imageModels).toEqual({
      status: 'none',
      provider: 'openai',
    });
    expect(clock.now()).toBe(IMAGE_MODELS_TIMEOUT_MS);
    expect(signal?.aborted).toBe(true);
  });
});

describe('the pictures’ slice', () => {
  let store: AppStore;
  beforeEach(() => {
    store = makeStore({
      preloadedState: appStateWith({ turn: { phase: 'choosing' } }, { provider: 'openai' }),
    });
  });
  afterEach(() => store.stop());

  // The pictures' slice is plugged into the app's reducer (pictureScenes.ts), as its flows do.
  const state = () => store.getState() as RootState;
  const dispatch = (...actions: UnknownAction[]) => actions.forEach((a) => store.dispatch(a));
  const pictures = () => selectStoryPictures(state());
  const listing = picturesActions.imageModelsListed({
    provider: 'openai',
    models: [ONE, MINI],
    model: 'gpt-image-1-mini',
    replaced: 'gpt-image-0',
    named: false,
  });

  test('starts with no models known, no pictures, nothing to illustrate with', () => {
    expect(selectImageModels(state())).toEqual({ status: 'unknown' });
    expect(pictures()).toEqual({});
    expect(selectCanIllustrate(state())).toBe(false);
  });

  test('listed models make pictures possible; none do not', () => {
    dispatch(listing);
    expect(selectCanIllustrate(state())).toBe(true);
    dispatch(picturesActions.imageModelsUnavailable({ provider: 'groq' }));
    expect(selectImageModels(state())).toEqual({ status: 'none', provider: 'groq' });
    expect(selectCanIllustrate(state())).toBe(false);
  });

  test('the list of a provider the player has just left draws nothing while the new one’s is read', () => {
    dispatch(listing);
    expect(selectPictureModel(state())).toBe('gpt-image-1-mini');
    dispatch(
      modelSettingsChosen({
        provider: 'together',
        model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
        baseUrl: '',
      }),
    );
    // Not OpenAI's model asked of Together: no pictures until Together's list is read.
    expect(selectPictureModel(state())).toBe('');
    expect(selectCanIllustrate(state())).toBe(false);
    dispatch(
      picturesActions.imageModelsListed({
        provider: 'together',
        models: [{ id: 'black-forest-labs/FLUX.1-schnell', label: 'FLUX.1 [schnell]' }],
        model: 'black-forest-labs/FLUX.1-schnell',
        replaced: null,
        named: false,
      }),
    );
    expect(selectPictureModel(state())).toBe('black-forest-labs/FLUX.1-schnell');
  });

  test('a listed model chosen is drawn with, and the replacement notice goes; an unlisted one is ignored', () => {
    dispatch(listing, picturesActions.imageModelChosen('dall-e-3'));
    expect(selectImageModels(state())).toMatchObject({
      model: 'gpt-image-1-mini',
      replaced: 'gpt-image-0',
    });
    dispatch(picturesActions.imageModelChosen('gpt-image-1'));
    expect(selectImageModels(state())).toMatchObject({
      model: 'gpt-image-1',
      replaced: null,
    });
  });

  test('a model chosen when none is listed changes nothing', () => {
    dispatch(picturesActions.imageModelChosen('gpt-image-1'));
    expect(selectImageModels(state())).toEqual({ status: 'unknown' });
  });

  test('a picture by turn: drawing, shown, failed, dropped', () => {
    dispatch(picturesActions.pictureDrawingStarted({ turn: 0, moment: 'opening' }));
    expect(selectPictureAt(state(), 0)).toEqual({ status: 'drawing', moment: 'opening' });
    dispatch(
      picturesActions.pictureShown({
        storyId: 7,
        turn: 0,
        moment: 'opening',
        width: 768,
        height: 512,
        alt: 'a',
      }),
    );
    expect(selectPictureAt(state(), 0)).toEqual({
      status: 'shown',
      storyId: 7,
      moment: 'opening',
      width: 768,
      height: 512,
      alt: 'a',
    });
    const failure = { kind: 'timeout', retryAt: null, providerMessage: null } as const;
    dispatch(picturesActions.pictureFailed({ turn: -1, moment: 'ending', failure }));
    expect(selectPictureAt(state(), -1)).toEqual({
      status: 'failed',
      moment: 'ending',
      failure,
    });
    dispatch(picturesActions.pictureDropped(0));
    expect(Object.keys(pictures())).toEqual(['-1']);
    // The player's requests are events for the flows: the state waits for them.
    dispatch(picturesActions.momentPictureRequested(2), picturesActions.pictureRetryRequested(-1));
    expect(Object.keys(pictures())).toEqual(['-1']);
  });

  test('the kept pictures of a story taken up are shown beside those being drawn, which stay so', () => {
    dispatch(picturesActions.pictureDrawingStarted({ turn: 5, moment: 'moment' }));
    dispatch(picturesActions.pictureDrawingStarted({ turn: 2, moment: 'moment' }));
    dispatch(
      picturesActions.storyPicturesFound([
        { storyId: 7, turn: 0, moment: 'opening', width: 768, height: 512, alt: 'o' },
        { storyId: 7, turn: 2, moment: 'moment', width: 512, height: 768, alt: 'm' },
      ]),
    );
    expect(pictures()).toEqual({
      0: { status: 'shown', storyId: 7, moment: 'opening', width: 768, height: 512, alt: 'o' },
      2: { status: 'drawing', moment: 'moment' },
      5: { status: 'drawing', moment: 'moment' },
    });
  });

  test('a branch of the story shows the pictures copied to it from its own record, and only those', () => {
    const shown = (storyId: number, turn: number) =>
      picturesActions.pictureShown({
        storyId,
        turn,
        moment: turn === 0 ? 'opening' : 'moment',
        width: 768,
        height: 512,
        alt: `scene ${turn}`,
      });
    dispatch(shown(4, 0), shown(4, 1), shown(5, 2));
    dispatch(picturesActions.pictureDrawingStarted({ turn: 3, moment: 'moment' }));
    dispatch(picturesActions.branchPicturesKept({ from: 4, storyId: 9, turns: [0, 2, 3] }));
    // The opening was copied; turn 1's scene is the other line's and stays where it is, and so
    // do those not shown from the story it split from.
    expect(pictures()).toEqual({
      0: {
        status: 'shown',
        storyId: 9,
        moment: 'opening',
        width: 768,
        height: 512,
        alt: 'scene 0',
      },
      1: { status: 'shown', storyId: 4, moment: 'moment', width: 768, height: 512, alt: 'scene 1' },
      2: { status: 'shown', storyId: 5, moment: 'moment', width: 768, height: 512, alt: 'scene 2' },
      3: { status: 'drawing', moment: 'moment' },
    });
  });

  test('a new story, or none, has no pictures', () => {
    dispatch(picturesActions.pictureDrawingStarted({ turn: 0, moment: 'opening' }));
    dispatch(gameActions.returnedHome());
    expect(pictures()).toEqual({});
  });

  test.each([
    ['a new game', gameActions.newGameStarted()],
    ['the way home', gameActions.returnedHome()],
    [
      'a saved story resumed',
      gameActions.savedStoryResumed({ ...initialStory, illustrated: true }),
    ],
  ])('%s leaves no pictures, and keeps the models listed', (_name, action) => {
    dispatch(listing, picturesActions.pictureDrawingStarted({ turn: 0, moment: 'opening' }));
    dispatch(action as UnknownAction);
    expect(pictures()).toEqual({});
    expect(selectCanIllustrate(state())).toBe(true);
  });
});

describe('Story.illustrated as parseStory reads it', () => {
  const read = (value: unknown) => {
    const story = parseStory(value);
    if (isStoryProblem(story)) throw new Error(`not a story: ${story.reason}`);
    return story;
  };
  const saved = JSON.parse(
    JSON.stringify({
      ...initialStory,
      chosenGenre: 'Gothic mystery',
      storyLog: [{ kind: 'paragraph', text: 'The lamp was dark.' }],
      previousParagraph: 'The lamp was dark.',
    }),
  ) as Record<string, unknown>;

  test('an illustrated story stays illustrated', () => {
    expect(read({ ...saved, illustrated: true }).illustrated).toBe(true);
  });

  test('a save from before pictures (no field) is not illustrated', () => {
    const { illustrated: _none, ...older } = saved;
    expect('illustrated' in older).toBe(false);
    expect(read(older).illustrated).toBe(false);
  });

  test('anything but true is not illustrated', () => {
    expect(read({ ...saved, illustrated: 'yes' }).illustrated).toBe(false);
    expect(read({ ...saved, illustrated: false }).illustrated).toBe(false);
  });
});

describe('game/illustrationChosen', () => {
  const chosen = (phase: RootState['game']['turn']) =>
    rootReducer(appStateWith({ turn: phase }), gameActions.illustrationChosen(true)).game.story
      .illustrated;

  test('is heard from the naming screen to the ending', () => {
    expect(chosen({ phase: 'naming' })).toBe(true);
    expect(chosen({ phase: 'choosing' })).toBe(true);
    expect(chosen({ phase: 'ended' })).toBe(true);
  });

  test('is not heard before a story is being named', () => {
    expect(chosen({ phase: 'choosingGenre' })).toBe(false);
    expect(chosen({ phase: 'home' })).toBe(false);
  });
});

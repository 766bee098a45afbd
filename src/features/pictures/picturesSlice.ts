import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { gameActions } from '../game';
import type { ImageModel, PictureFailureKind, PictureMoment } from '../llm';
import { modelSettingsChosen, type SettingsState } from '../settings';
import { MAX_MOMENT_PICTURES } from '../stories';

/**
 * The models the player's provider can draw with (issue 41), read from its own live list with
 * their key, and the one pictures are drawn with (selectPictureModel). 'none': the provider
 * draws nothing, or its list holds no image model (or could not be read): "Illustrate this
 * story" is not offered.
 */
export type ImageModels =
  | { status: 'unknown' }
  | { status: 'none'; provider: string }
  | {
      status: 'listed';
      /** A preset id. */
      provider: string;
      /** The list's image models; for a named one, only suggestions (perhaps none). */
      models: ImageModel[];
      /** The model pictures are drawn with, from the list ('' where the player names it). */
      model: string;
      /** A model chosen earlier that the list no longer holds: the game says so. */
      replaced: string | null;
      /**
       * The player names the model (a Custom server, settings' imageModel): a name the list
       * does not hold is theirs to give, and none given yet offers no pictures.
       */
      named: boolean;
    };

/**
 * Why a picture is not there, as the player is told it: a provider's refusal (PictureError's
 * kinds); 'notKept' when the browser would not keep it (storage full, the story not saved or
 * gone), 'tooMany' when the story keeps as many as it may, 'cannotEncode' when this browser
 * encodes neither WebP nor JPEG.
 */
export interface PictureFailure {
  kind: PictureFailureKind | 'notKept' | 'tooMany' | 'cannotEncode';
  /** For a per-minute limit: when another try may go (ms since the epoch), if it was said. */
  retryAt: number | null;
  /** What the provider said, the key taken out; null when it said nothing. */
  providerMessage: string | null;
}

/** A picture of the story being played: being drawn, kept and shown, or failed. */
export type StoryPictureState =
  | { status: 'drawing'; moment: PictureMoment }
  | {
      status: 'shown';
      moment: PictureMoment;
      /** The saved story MyStoriesDB keeps it under. */
      storyId: number;
      width: number;
      height: number;
      alt: string;
    }
  | { status: 'failed'; moment: PictureMoment; failure: PictureFailure };

/** A kept picture as the story's page shows it (its bytes stay in MyStoriesDB). */
export interface ShownPicture {
  /** The saved story MyStoriesDB keeps it under. */
  storyId: number;
  turn: number;
  moment: PictureMoment;
  width: number;
  height: number;
  alt: string;
}

export interface PicturesState {
  imageModels: ImageModels;
  /**
   * The pictures of the story being played, by the turn they show (the opening's is 0, the
   * ending's -1): session state, rebuilt from MyStoriesDB when a saved story is taken up.
   */
  pictures: Record<number, StoryPictureState>;
  /**
   * Whether a story's pictures are followed: their flows' code has come, with the first story
   * illustrated (or taken up with pictures), and the game's views may show pictures.
   */
  storyFlows: boolean;
  /** That code could not be fetched when a story wanted it; the next event that does asks again. */
  storyFlowsMissing: boolean;
}

export const initialPicturesState: PicturesState = {
  imageModels: { status: 'unknown' },
  pictures: {},
  storyFlows: false,
  storyFlowsMissing: false,
};

/** A new story, or none, has no pictures yet. */
const noPictures = (state: PicturesState) => {
  state.pictures = {};
};

export const picturesSlice = createSlice({
  name: 'pictures',
  initialState: initialPicturesState,
  reducers: {
    /** The pictures' code has arrived and their slice is in the store, in its first state. */
    flowsStarted() {},
    /** The story pictures' code has come too (a story is illustrated): pictures are shown. */
    storyFlowsStarted(state) {
      state.storyFlows = true;
      state.storyFlowsMissing = false;
    },
    /** The story pictures' code could not be fetched (offline, or a new release meanwhile). */
    storyFlowsMissing(state) {
      state.storyFlowsMissing = true;
    },
    imageModelsListed(
      state,
      action: PayloadAction<{
        provider: string;
        models: ImageModel[];
        model: string;
        replaced: string | null;
        named: boolean;
      }>,
    ) {
      state.imageModels = { status: 'listed', ...action.payload };
    },
    /** The provider draws nothing this key may use: pictures are not offered. */
    imageModelsUnavailable(state, action: PayloadAction<{ provider: string }>) {
      state.imageModels = { status: 'none', provider: action.payload.provider };
    },
    /** The player chose another of the listed models. */
    imageModelChosen(state, action: PayloadAction<string>) {
      const models = state.imageModels;
      if (models.status !== 'listed' || models.named) return;
      if (!models.models.some((model) => model.id === action.payload)) return;
      models.model = action.payload;
      models.replaced = null;
    },
    /** "Picture this moment": the player asked for the latest paragraph to be drawn. */
    momentPictureRequested(_state, _action: PayloadAction<number>) {},
    /** Try again, on a picture that failed. */
    pictureRetryRequested(_state, _action: PayloadAction<number>) {},
    pictureDrawingStarted(state, action: PayloadAction<{ turn: number; moment: PictureMoment }>) {
      const { turn, moment } = action.payload;
      state.pictures[turn] = { status: 'drawing', moment };
    },
    pictureShown(state, action: PayloadAction<ShownPicture>) {
      const { turn, ...shown } = action.payload;
      state.pictures[turn] = { status: 'shown', ...shown };
    },
    pictureFailed(
      state,
      action: PayloadAction<{ turn: number; moment: PictureMoment; failure: PictureFailure }>,
    ) {
      const { turn, moment, failure } = action.payload;
      state.pictures[turn] = { status: 'failed', moment, failure };
    },
    /** A picture that no longer shows its paragraph (written again) is let go. */
    pictureDropped(state, action: PayloadAction<number>) {
      delete state.pictures[action.payload];
    },
    /**
     * The story went on as a branch of its own (another tab had played it on), which keeps
     * copies of the pictures of these turns: they are shown from it.
     */
    branchPicturesKept(
      state,
      action: PayloadAction<{ from: number; storyId: number; turns: number[] }>,
    ) {
      const { from, storyId, turns } = action.payload;
      for (const turn of turns) {
        const picture = state.pictures[turn];
        if (picture?.status === 'shown' && picture.storyId === from) picture.storyId = storyId;
      }
    },
    /** The pictures MyStoriesDB keeps of the story just taken up. */
    storyPicturesFound(state, action: PayloadAction<ShownPicture[]>) {
      // Beside what this session already drew or is drawing: a picture being drawn stays so.
      for (const { turn, ...shown } of action.payload) {
        if (state.pictures[turn]?.status !== 'drawing') {
          state.pictures[turn] = { status: 'shown', ...shown };
        }
      }
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(gameActions.newGameStarted, noPictures)
      .addCase(gameActions.returnedHome, noPictures)
      .addCase(gameActions.savedStoryResumed, noPictures);
  },
  selectors: {
    selectImageModels: (pictures) => pictures.imageModels,
    selectStoryPictures: (pictures) => pictures.pictures,
    selectStoryFlowsMissing: (pictures) => pictures.storyFlowsMissing,
  },
});

export const picturesActions = picturesSlice.actions;
export const { selectImageModels, selectStoryPictures, selectStoryFlowsMissing } =
  picturesSlice.selectors;

/** The picture of a turn of the story being played, if it has one in any state. */
export const selectPictureAt = (state: { pictures: PicturesState }, turn: number) =>
  state.pictures.pictures[turn];

/**
 * Whether the story has room for another moment's picture: MyStoriesDB keeps at most
 * MAX_MOMENT_PICTURES besides its opening and ending, and one past them is refused after it was
 * drawn (and paid for), so it is not asked for.
 */
export const roomForMoment = (pictures: PicturesState['pictures']): boolean =>
  Object.keys(pictures).filter((turn) => Number(turn) >= 1).length < MAX_MOMENT_PICTURES;

/**
 * A Custom server's image model named: the settings' own event, the player's other model
 * settings as they are.
 */
export const imageModelNamed = ({ provider, model, baseUrl }: SettingsState, imageModel: string) =>
  modelSettingsChosen({ provider, model, baseUrl, imageModel });

/**
 * The model pictures are drawn with: the one chosen of the provider's list, or the one the
 * player named for their server; '' when there is none, and while the list is another
 * provider's (the player has just changed provider: the new one's list is being read).
 */
export const selectPictureModel = (state: {
  pictures: PicturesState;
  settings: Pick<SettingsState, 'imageModel' | 'provider'>;
}): string => {
  const models = state.pictures.imageModels;
  if (models.status !== 'listed' || models.provider !== state.settings.provider) return '';
  return models.named ? state.settings.imageModel.trim() : models.model;
};

/**
 * The models listed are another provider's than the player's: the player has just changed
 * provider, and the new one's list is being read (pictures wait for it: drawing.ts).
 */
export const selectListIsAnotherProviders = (state: {
  pictures: PicturesState;
  settings: Pick<SettingsState, 'provider'>;
}): boolean => {
  const models = state.pictures.imageModels;
  return models.status !== 'unknown' && models.provider !== state.settings.provider;
};

/** Pictures can be drawn for a story: the provider has a model that draws. */
export const selectCanIllustrate = (state: Parameters<typeof selectPictureModel>[0]) =>
  selectPictureModel(state) !== '';

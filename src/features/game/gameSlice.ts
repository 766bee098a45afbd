import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { StoryOption } from '../../engine/types';
import type {
  GameState,
  ResolvedChoice,
  RolledChoice,
  Segment,
  CharacterProfile,
  KeyErrorCode,
  Problem,
  Recap,
  GameWait,
  ResumableGame,
} from './gameModel';

export type {
  GameStage,
  StoryEntry,
  GameErrorCode,
  KeyErrorCode,
  ProblemReason,
  Problem,
  GameWait,
  Recap,
  CharacterProfile,
  GameState,
  ResolvedChoice,
  RolledChoice,
  Segment,
} from './gameModel';

/** SPEC.md section 3: where the browser keeps the player's key between visits. */
export const API_KEY_STORAGE_KEY = 'apiKey';

export const initialGameState: GameState = {
  stage: 'apiKeyInput',
  apiKey: '',
  checkingKey: false,
  keyError: null,
  keyErrorDetail: null,
  chosenGenre: '',
  chosenImage: 1,
  chosenCharacter: '',
  characterGender: '',
  characterBio: '',
  characterTraits: [],
  characterFacialFeatures: [],
  storyLog: [],
  previousParagraph: '',
  options: [],
  storySummary: [],
  summaryPending: false,
  streamingText: '',
  turnCount: 0,
  loadingProgress: 0,
  isLoading: false,
  isFinal: false,
  scenarioHistory: [],
  moralChoices: [],
  outcomes: [],
  recap: null,
  lastChoice: null,
  wait: null,
  thinking: false,
  error: null,
  errorDetail: null,
};

/** A new story keeps the session's key and nothing else. */
const freshStory = (state: GameState): GameState => ({
  ...initialGameState,
  apiKey: state.apiKey,
  stage: 'genreSelection',
});

export const gameSlice = createSlice({
  name: 'game',
  initialState: initialGameState,
  reducers: {
    apiKeySubmitted: {
      reducer(state, action: PayloadAction<string>) {
        if (state.checkingKey) return;
        state.checkingKey = true;
        state.keyError = null;
        state.keyErrorDetail = null;
        void action;
      },
      prepare: (apiKey: string) => ({ payload: apiKey }),
    },
    apiKeyAccepted(state, action: PayloadAction<string>) {
      state.checkingKey = false;
      state.apiKey = action.payload;
      // A story under way (stopped at a provider's daily cap, say) goes on with the new key or
      // provider: nothing of it is lost (DESIGN.md, Limits read from the answer).
      if (!isStoryUnderWay(state)) state.stage = 'loadOrCreate';
    },
    apiKeyRejected(state, action: PayloadAction<{ error: KeyErrorCode; detail?: Problem | null }>) {
      state.checkingKey = false;
      state.keyError = action.payload.error;
      state.keyErrorDetail = action.payload.detail ?? null;
    },
    newGameStarted: (state) => (state.stage === 'apiKeyInput' ? state : freshStory(state)),
    genreChosen(state, action: PayloadAction<string>) {
      const genre = action.payload.trim();
      if (state.stage !== 'genreSelection' || genre === '') return;
      state.chosenGenre = genre;
      state.stage = 'characterImageSelection';
    },
    portraitChosen(state, action: PayloadAction<number>) {
      if (state.stage !== 'characterImageSelection') return;
      if (!Number.isInteger(action.payload) || action.payload < 1 || action.payload > 32) return;
      state.chosenImage = action.payload;
      state.stage = 'characterSelection';
    },
    characterNamed(state, action: PayloadAction<string>) {
      const name = action.payload.trim().replace(/\s+/g, ' ');
      if (state.stage !== 'characterSelection' || name === '') return;
      state.chosenCharacter = name;
      state.stage = 'loading';
      state.isLoading = true;
      state.loadingProgress = 0;
      state.error = null;
    },
    characterProfileReceived(state, action: PayloadAction<CharacterProfile>) {
      if (state.stage !== 'loading') return;
      state.characterGender = action.payload.gender;
      state.characterBio = action.payload.bio;
      state.characterTraits = action.payload.traits;
      state.characterFacialFeatures = action.payload.facialFeatures;
    },
    openingProgressed(state, action: PayloadAction<number>) {
      if (state.stage === 'loading') state.loadingProgress = action.payload;
    },
    openingReceived(state, action: PayloadAction<{ storyStart: string; options: StoryOption[] }>) {
      if (state.stage !== 'loading') return;
      state.storyLog = [{ kind: 'paragraph', text: action.payload.storyStart }];
      state.previousParagraph = action.payload.storyStart;
      state.options = action.payload.options;
      state.streamingText = '';
      state.thinking = false;
    },
    openingSummaryReceived(state, action: PayloadAction<string>) {
      if (state.stage !== 'loading') return;
      state.storySummary = [action.payload];
      state.loadingProgress = 100;
      state.isLoading = false;
      state.wait = null;
      state.stage = 'playing';
    },
    /** The player picked option `index`, or typed `text` (the saga rolls and submits it). */
    choiceMade(_state, _action: PayloadAction<{ index: number } | { text: string }>) {},
    /** The player pressed Retry after a failed opening: the opening is asked for again. */
    openingRetryRequested(state) {
      if (state.error !== 'openingFailed') return;
      state.isLoading = true;
      state.loadingProgress = 0;
      state.error = null;
      state.errorDetail = null;
    },
    /** The game rolled how the choice goes (SPEC.md section 4): the turn starts. */
    outcomeRolled(state, action: PayloadAction<RolledChoice>) {
      // After a failed turn, Try again is the way on (a new choice would count twice).
      if (!canChoose(state)) return;
      const { option, freeText, outcome } = action.payload;
      state.storyLog.push({
        kind: 'choice',
        text: option.text,
        freeText,
        // SPEC.md section 2: the outcome badge shows from the 2nd turn.
        outcome: state.turnCount >= 1 ? outcome : null,
      });
      state.turnCount += 1;
      state.outcomes.push(outcome);
      state.moralChoices.push(option.alignment);
      state.lastChoice = null;
      state.options = [];
      state.isLoading = true;
      state.error = null;
      state.errorDetail = null;
    },
    /** The game picked the turn's scenario type: the choice is resolved, the model is asked. */
    scenarioPicked(state, action: PayloadAction<ResolvedChoice>) {
      if (state.stage !== 'playing' || !state.isLoading || state.lastChoice) return;
      state.scenarioHistory.push(action.payload.scenarioType);
      state.lastChoice = action.payload;
    },
    segmentStreamed(state, action: PayloadAction<string>) {
      if (!state.isLoading) return;
      state.streamingText = action.payload;
      state.thinking = false;
    },
    /** A reasoning model thinks before it writes: a quiet 'thinking' until its words come. */
    reasoningStreamed(state) {
      if (state.isLoading && state.streamingText === '') state.thinking = true;
    },
    /**
     * The model's segment is in and joins the story. The turn stays loading: a segment that
     * goes on waits for its options (optionsOffered), a final one for its summary and the
     * recap.
     */
    segmentReceived(state, action: PayloadAction<Segment>) {
      if (!state.isLoading || state.stage !== 'playing') return;
      state.storyLog.push({ kind: 'paragraph', text: action.payload.text });
      state.previousParagraph = action.payload.text;
      state.options = [];
      state.isFinal = action.payload.isFinal;
      state.streamingText = '';
      state.thinking = false;
      state.wait = null;
      state.summaryPending = true;
    },
    /** The choices the new segment ends on: the player may choose now, the summary behind. */
    optionsOffered(state, action: PayloadAction<StoryOption[]>) {
      if (!state.isLoading || state.stage !== 'playing' || state.isFinal) return;
      state.options = action.payload;
      state.isLoading = false;
    },
    /**
     * The reply left out the segment's summary: the game asks for it behind the options (the
     * game's saga hears this), and the next turn waits for it.
     */
    summaryMissing(state) {
      if (state.stage === 'playing') state.summaryPending = true;
    },
    /** The latest segment's summary is in (the next turn may already be waiting for it). */
    summaryStored(state, action: PayloadAction<string>) {
      if (state.stage !== 'playing' || !state.summaryPending) return;
      state.storySummary.push(action.payload);
      state.summaryPending = false;
      // Any wait shown now was the summary's: the next turn asks for nothing before it.
      state.wait = null;
    },
    turnRetryScheduled(state, action: PayloadAction<GameWait>) {
      state.wait = action.payload;
      // What streamed in before the failure is not the story: it goes while the game waits.
      state.streamingText = '';
      state.thinking = false;
    },
    /** SPEC.md section 4: loading stops and 'Failed to fetch story data' is shown. */
    turnFailed(state, action: PayloadAction<Problem | null>) {
      if (!state.isLoading) return;
      state.isLoading = false;
      state.wait = null;
      state.streamingText = '';
      state.thinking = false;
      state.error = state.stage === 'loading' ? 'openingFailed' : 'turnFailed';
      state.errorDetail = action.payload;
    },
    /** The player asks to try the failed turn again: the same choice, asked for once more. */
    turnRetryRequested(state) {
      if (state.error !== 'turnFailed' || !state.lastChoice) return;
      state.isLoading = true;
      state.error = null;
      state.errorDetail = null;
    },
    recapReceived(state, action: PayloadAction<Recap>) {
      if (!state.isFinal) return;
      state.recap = action.payload;
      state.isLoading = false;
      state.wait = null;
      state.stage = 'endingScreen';
    },
    /** Cancel on the overlay, Return to Home, or leaving the game: any wait stops, and what
     * was left unfinished (the opening, a turn, the recap) can be tried again. */
    waitCancelled(state) {
      if (state.isLoading && state.stage === 'loading') state.error = 'openingFailed';
      if (state.isLoading && state.stage === 'playing' && state.lastChoice) {
        state.error = 'turnFailed';
      }
      // A final segment's summary is written within the turn, so it stops with it; any other
      // runs on behind the options, and the next turn still waits for it.
      if (state.isFinal) state.summaryPending = false;
      state.isLoading = false;
      state.wait = null;
      state.streamingText = '';
      state.thinking = false;
    },
    returnedHome(state) {
      state.isLoading = false;
      // Leaving the game stops the summary being written behind the options (the game's saga).
      state.summaryPending = false;
      state.wait = null;
      state.streamingText = '';
      state.thinking = false;
      if (state.stage !== 'apiKeyInput') state.stage = 'loadOrCreate';
    },
    /**
     * A saved story opened from the list (SPEC.md section 4): the ending screen for a finished
     * story, otherwise the playing screen at its turn. The session's API key is kept.
     */
    savedStoryResumed(state, action: PayloadAction<ResumableGame>) {
      if (state.stage === 'apiKeyInput') return state;
      // The stats are the playerStats slice's to restore.
      const { playerStats, scoreBreakdown, finalScore, ...story } = action.payload;
      return {
        ...initialGameState,
        ...story,
        // No summary is being written for a story just opened: nothing may wait for one.
        summaryPending: false,
        apiKey: state.apiKey,
        stage: story.isFinal ? 'endingScreen' : 'playing',
      };
    },
    errorDismissed(state) {
      state.error = null;
      state.errorDetail = null;
    },
  },
  selectors: {
    selectGame: (game) => game,
    selectGameStage: (game) => game.stage,
    /** The narrative as it streams in: the one thing that changes on every frame of a turn. */
    selectStreamingText: (game) => game.streamingText,
    /** Whether a paragraph is being written: changes twice a turn, not with every update. */
    selectIsWriting: (game) => game.streamingText !== '',
  },
});

export const gameActions = gameSlice.actions;

/** A story has begun and not ended: its opening is being written, or it is being played. */
export function isStoryUnderWay(state: GameState): boolean {
  return state.stage === 'loading' || state.stage === 'playing';
}

/** Whether a choice may be made now: playing, nothing loading, not ended, no failed turn. */
export function canChoose(state: GameState): boolean {
  return (
    state.stage === 'playing' && !state.isLoading && !state.isFinal && state.error !== 'turnFailed'
  );
}
export const { selectGame, selectGameStage, selectStreamingText, selectIsWriting } =
  gameSlice.selectors;

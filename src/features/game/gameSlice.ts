import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { StoryOption } from '../../engine/types';
import {
  FREE_TEXT_MAX_CHARS,
  MAX_REWRITES_PER_TURN,
  MEMORY_ENTRY_MAX_CHARS,
  PARAGRAPH_MAX_CHARS,
  PARAGRAPH_MIN_CHARS,
  STORY_NOTE_MAX_CHARS,
  type GameState,
  type ResolvedChoice,
  type RolledChoice,
  type Segment,
  type CharacterProfile,
  type KeyErrorCode,
  type Problem,
  type Recap,
  type GameWait,
  type ResumableGame,
  type StoryEntry,
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
  storyNote: '',
  rewrites: 0,
  turnRewrites: 0,
  turnStopped: false,
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

/** A character before the model has described them. */
const noProfile = {
  characterGender: '',
  characterBio: '',
  characterTraits: [],
  characterFacialFeatures: [],
} satisfies Partial<GameState>;

/** Nothing is being asked of the model, and nothing of a request is on screen. */
const nothingUnderWay = {
  isLoading: false,
  wait: null,
  streamingText: '',
  thinking: false,
} satisfies Partial<GameState>;

function latestParagraph(log: readonly StoryEntry[]) {
  return log.findLast((entry) => entry.kind === 'paragraph');
}

/** The choice of the current turn in the log: last after a Stop, else before its paragraph. */
export function latestChoice(state: GameState) {
  const entry = state.storyLog.at(state.turnStopped ? -1 : -2);
  return entry?.kind === 'choice' ? entry : undefined;
}

/**
 * The latest paragraph's summary leaves the story's memory, if it is there: one summary per
 * paragraph, so it is there when the counts match (a story saved while it was still being
 * written has one fewer, and the previous paragraph's must stay).
 */
function dropLatestSummary(state: GameState) {
  const paragraphs = state.storyLog.filter((entry) => entry.kind === 'paragraph').length;
  if (state.storySummary.length === paragraphs) state.storySummary.pop();
}

/** The latest segment's summary is written again (from an edit): the old one goes. */
function summarizeAgain(state: GameState) {
  dropLatestSummary(state);
  state.summaryPending = true;
}

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
      // Back at the name after a stopped opening: another name gets its own profile.
      if (name !== state.chosenCharacter) Object.assign(state, noProfile);
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
      state.turnRewrites = 0;
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
      state.turnStopped = false;
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
      const resumed: GameState = {
        ...initialGameState,
        ...story,
        // No summary is being written for a story just opened: nothing may wait for one.
        summaryPending: false,
        apiKey: state.apiKey,
        stage: story.isFinal ? 'endingScreen' : 'playing',
      };
      // A turn saved before its segment came (stopped, left mid-turn, or failed) keeps its
      // roll (issue 22). It comes back stopped: writing it again is a rewrite, as a Stop
      // would have been, so leaving mid-paragraph cannot preview one for free. With no rewrite
      // left, Try again goes on with it.
      if (isTurnUnwritten(resumed)) {
        resumed.turnStopped = resumed.turnRewrites < MAX_REWRITES_PER_TURN;
        if (!resumed.turnStopped) resumed.error = 'turnFailed';
      }
      return resumed;
    },
    /**
     * Stop while a segment is written: the request ends at once and what streamed is dropped.
     * During the opening, back to the name with the genre, portrait and name kept; during a
     * turn, the choice and its roll stand and the turn waits to be written again.
     */
    writingStopped(state) {
      if (!canStop(state)) return;
      Object.assign(state, nothingUnderWay);
      if (state.stage === 'loading') {
        // Nothing of the opening is in the story yet (canStop): only the screen goes back.
        state.stage = 'characterSelection';
        state.loadingProgress = 0;
        state.error = null;
        state.errorDetail = null;
      } else {
        state.turnStopped = true;
      }
    },
    /**
     * 'Write it again': the latest segment is asked for anew for the same choice, with the same
     * rolled outcome and scenario (never a new roll). The paragraph it replaces, and its
     * summary, leave the story; after a Stop there is none to take back.
     */
    rewriteRequested(state) {
      if (!canRewrite(state)) return;
      if (!state.turnStopped) {
        // The replaced paragraph's summary: stored, or still being written (no longer wanted).
        dropLatestSummary(state);
        state.storyLog.pop();
        state.summaryPending = false;
        state.previousParagraph = latestParagraph(state.storyLog)?.text ?? '';
      }
      state.turnStopped = false;
      state.turnRewrites += 1;
      state.rewrites += 1;
      state.options = [];
      state.isLoading = true;
      state.error = null;
      state.errorDetail = null;
    },
    /**
     * The player rewrote the latest paragraph: the model reads the edited text from now on, and
     * its summary is written again from it (the game's saga hears this).
     */
    paragraphEdited(state, action: PayloadAction<string>) {
      const text = action.payload.trim();
      const entry = state.storyLog.at(-1);
      if (!canEdit(state) || entry?.kind !== 'paragraph') return;
      if (text.length < PARAGRAPH_MIN_CHARS || text.length > PARAGRAPH_MAX_CHARS) return;
      if (text === entry.text) return;
      entry.text = text;
      entry.edited = true;
      state.previousParagraph = text;
      summarizeAgain(state);
    },
    /**
     * The player rewrote their own typed action of this turn: a rewrite asks for it as edited,
     * and the segment's summary, which tells the choice, is written again.
     */
    choiceEdited(state, action: PayloadAction<string>) {
      const text = action.payload.trim();
      const entry = latestChoice(state);
      const choice = state.lastChoice;
      if (!canEdit(state) || !entry || !choice?.freeText) return;
      if (text === '' || text.length > FREE_TEXT_MAX_CHARS || text === entry.text) return;
      entry.text = text;
      entry.edited = true;
      choice.option.text = text;
      if (!state.turnStopped) summarizeAgain(state);
    },
    /** The player corrected one entry of the story's memory (the summary at `index`). */
    memoryCorrected(state, action: PayloadAction<{ index: number; text: string }>) {
      const { index } = action.payload;
      const text = action.payload.text.trim();
      if (state.stage !== 'playing' || !Number.isInteger(index)) return;
      if (index < 0 || index >= state.storySummary.length) return;
      if (text === '' || text.length > MEMORY_ENTRY_MAX_CHARS) return;
      state.storySummary[index] = text;
    },
    /** The pinned note, told to the model every turn; an empty note unpins it. */
    storyNotePinned(state, action: PayloadAction<string>) {
      const note = action.payload.trim();
      if (state.stage !== 'playing' || note.length > STORY_NOTE_MAX_CHARS) return;
      state.storyNote = note;
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
    state.stage === 'playing' &&
    !state.isLoading &&
    !state.isFinal &&
    state.error !== 'turnFailed' &&
    !state.turnStopped
  );
}

/** The current turn's choice is made and rolled, and its segment is not in the story yet. */
export function isTurnUnwritten(state: GameState): boolean {
  return (
    state.stage === 'playing' &&
    state.lastChoice !== null &&
    state.lastChoice.turn === state.turnCount &&
    state.storyLog.at(-1)?.kind === 'choice'
  );
}

/** Whether Stop applies: the opening, or a turn's segment, is being written. */
export function canStop(state: GameState): boolean {
  // The opening until its scene is in (then only its summary is left to write).
  if (state.stage === 'loading') return state.isLoading && state.storyLog.length === 0;
  return (
    state.isLoading &&
    !state.isFinal &&
    isTurnUnwritten(state) &&
    state.turnRewrites < MAX_REWRITES_PER_TURN
  );
}

/** Whether the current turn may be written again: its segment is in (or was stopped). */
export function canRewrite(state: GameState): boolean {
  return (
    state.stage === 'playing' &&
    !state.isLoading &&
    !state.isFinal &&
    state.error === null &&
    state.lastChoice !== null &&
    state.lastChoice.turn === state.turnCount &&
    state.turnRewrites < MAX_REWRITES_PER_TURN &&
    (state.turnStopped || state.storyLog.at(-1)?.kind === 'paragraph')
  );
}

/** Whether the latest paragraph, and the player's typed action, may be edited now. */
export function canEdit(state: GameState): boolean {
  return state.stage === 'playing' && !state.isLoading && !state.isFinal && state.error === null;
}

export const { selectGame, selectGameStage, selectStreamingText, selectIsWriting } =
  gameSlice.selectors;

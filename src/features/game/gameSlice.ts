import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { applyChoiceToStats } from '../../engine/stats';
import type { ScoreBreakdown, StoryOption } from '../../engine/types';
import {
  FREE_TEXT_MAX_CHARS,
  MEMORY_ENTRY_MAX_CHARS,
  PARAGRAPH_MAX_CHARS,
  PARAGRAPH_MIN_CHARS,
  STORY_NOTE_MAX_CHARS,
  type CharacterProfile,
  type GameState,
  type GameWait,
  type KeyErrorCode,
  type Phase,
  type Problem,
  type Recap,
  type ResolvedChoice,
  type RolledChoice,
  type Segment,
  type Story,
  type Writing,
} from './gameModel';
import {
  canEdit,
  canRewrite,
  canStop,
  initialStory,
  isStoryUnderWay,
  isTurnUnwritten,
  latestChoice,
  PLAYING_PHASES,
  phaseOf,
} from './turn/turnRules';
import { PORTRAIT_COUNT } from './portraits';
import { each, inPhases } from './turn/phaseReducers';
import {
  sheetReducers,
  sheetStarted,
  sheetTurnBegan,
  sheetTurnTakenBack,
} from './sheet/sheetReducers';
import { lorebookReducers } from './lorebook/lorebookReducers';
import { costReducers } from './cost/costReducers';

export type {
  CharacterProfile,
  GameResult,
  GameStage,
  GameState,
  GameWait,
  KeyCheck,
  KeyErrorCode,
  Phase,
  Problem,
  ProblemReason,
  Recap,
  ResolvedChoice,
  RolledChoice,
  Segment,
  Story,
  StoryEntry,
  Turn,
  Writing,
} from './gameModel';

/** SPEC.md section 3: where the browser keeps the player's key between visits. */
export const API_KEY_STORAGE_KEY = 'apiKey';

export const initialGameState: GameState = {
  apiKey: '',
  keyCheck: { status: 'idle' },
  turn: { phase: 'keyNeeded' },
  summary: 'written',
  story: initialStory,
};

/** Nothing of a paragraph is on screen yet: no words, no thinking, no wait. */
const nothingWritten: Writing = { streamed: '', thinking: false, wait: null };

function latestParagraph(story: Story) {
  return story.storyLog.findLast((entry) => entry.kind === 'paragraph');
}

/**
 * The latest paragraph's summary leaves the story's memory, if it is there: one summary per
 * paragraph, so it is there when the counts match (a story saved while it was still being
 * written has one fewer, and the previous paragraph's must stay).
 */
function dropLatestSummary(story: Story) {
  const paragraphs = story.storyLog.filter((entry) => entry.kind === 'paragraph').length;
  if (story.storySummary.length === paragraphs) story.storySummary.pop();
}

/** The latest segment's summary is written again (from an edit): the old one goes. */
function summarizeAgain(state: GameState) {
  dropLatestSummary(state.story);
  state.summary = 'pending';
}

/** A paragraph is being written (the opening, a segment): its streamed words, a wait. */
const WRITING_PHASES = ['opening', 'writing', 'concluding'] as const satisfies Phase[];
type WritingTurn = Extract<GameState['turn'], { phase: (typeof WRITING_PHASES)[number] }>;
const writingTurn = (state: GameState) => state.turn as WritingTurn;

/** A failure ends what was being written; the problem is the player's to read. */
function failed(state: GameState, problem: Problem | null) {
  state.turn =
    state.turn.phase === 'opening'
      ? { phase: 'openingFailed', problem }
      : { phase: 'failed', problem };
}

export const gameSlice = createSlice({
  name: 'game',
  initialState: initialGameState,
  reducers: {
    apiKeySubmitted: {
      reducer(state, _action: PayloadAction<string>) {
        if (state.keyCheck.status !== 'checking') state.keyCheck = { status: 'checking' };
      },
      prepare: (apiKey: string) => ({ payload: apiKey }),
    },
    apiKeyAccepted(state, action: PayloadAction<string>) {
      state.keyCheck = { status: 'idle' };
      state.apiKey = action.payload;
      // A story under way (stopped at a provider's daily cap, say) goes on with the new key or
      // provider: nothing of it is lost (DESIGN.md, Limits read from the answer).
      if (!isStoryUnderWay(state)) state.turn = { phase: 'home' };
    },
    apiKeyRejected(state, action: PayloadAction<{ error: KeyErrorCode; detail?: Problem | null }>) {
      state.keyCheck = {
        status: 'refused',
        error: action.payload.error,
        detail: action.payload.detail ?? null,
      };
    },
    /**
     * Start New Game: a new story keeps the session's key, and nothing else. Refused on the key
     * screen (no key, no game); newStoryBegun says when it was taken (newStory.ts).
     */
    newGameStarted: (state) =>
      state.turn.phase === 'keyNeeded'
        ? state
        : { ...initialGameState, apiKey: state.apiKey, turn: { phase: 'choosingGenre' } },
    /**
     * The game has taken a new story, told once it has (newStory.ts): what keeps something of
     * the story being played (its saved record) lets it go on this, never on the command.
     */
    newStoryBegun() {},
    genreChosen: inPhases<string>({
      choosingGenre(state, payload) {
        const genre = payload.trim();
        if (genre === '') return;
        state.story.chosenGenre = genre;
        state.turn = { phase: 'choosingPortrait' };
      },
    }),
    portraitChosen: inPhases<number>({
      choosingPortrait(state, portrait) {
        if (!Number.isInteger(portrait) || portrait < 1 || portrait > PORTRAIT_COUNT) return;
        state.story.chosenImage = portrait;
        state.turn = { phase: 'naming' };
      },
    }),
    characterNamed: inPhases<string>({
      naming(state, payload) {
        const name = payload.trim().replace(/\s+/g, ' ');
        if (name === '') return;
        const { story } = state;
        // Back at the name after a stopped opening: another name gets its own profile.
        if (name !== story.chosenCharacter) {
          Object.assign(story, {
            characterGender: '',
            characterBio: '',
            characterTraits: [],
            characterFacialFeatures: [],
          });
        }
        story.chosenCharacter = name;
        state.turn = { phase: 'opening', progress: 0, ...nothingWritten };
      },
    }),
    characterProfileReceived: inPhases<CharacterProfile>({
      opening({ story }, profile) {
        story.characterGender = profile.gender;
        story.characterBio = profile.bio;
        story.characterTraits = profile.traits;
        story.characterFacialFeatures = profile.facialFeatures;
      },
    }),
    openingProgressed: inPhases<number>({
      opening(state, progress) {
        state.turn = { ...writingTurn(state), phase: 'opening', progress };
      },
    }),
    openingReceived: inPhases<{ storyStart: string; options: StoryOption[] }>({
      opening(state, { storyStart, options }) {
        state.story.storyLog = [{ kind: 'paragraph', text: storyStart }];
        sheetStarted(state.story);
        state.story.previousParagraph = storyStart;
        state.story.options = options;
        Object.assign(state.turn, { streamed: '', thinking: false });
      },
    }),
    openingSummaryReceived: inPhases<string>({
      opening(state, summary) {
        state.story.storySummary = [summary];
        state.turn = { phase: 'choosing' };
      },
    }),
    /** The player picked option `index`, or typed `text` (the saga rolls and submits it). */
    choiceMade(_state, _action: PayloadAction<{ index: number } | { text: string }>) {},
    /** The player pressed Retry after a failed opening: the opening is asked for again. */
    openingRetryRequested: inPhases<void>({
      openingFailed(state) {
        state.turn = { phase: 'opening', progress: 0, ...nothingWritten };
      },
    }),
    /** The game rolled how the choice goes (SPEC.md section 4): the turn starts. */
    outcomeRolled: inPhases<RolledChoice>({
      choosing(state, { option, freeText, outcome, outcomesSoFar }) {
        const { story } = state;
        story.storyLog.push({
          kind: 'choice',
          text: option.text,
          freeText,
          // SPEC.md section 2: the outcome badge shows from the 2nd turn.
          outcome: story.turnCount >= 1 ? outcome : null,
        });
        story.turnCount += 1;
        story.turnRewrites = 0;
        story.outcomes.push(outcome);
        story.moralChoices.push(option.alignment);
        story.lastChoice = null;
        story.options = [];
        // The stats follow the game's own roll, never the model's echo (DESIGN.md).
        story.playerStats = applyChoiceToStats(story.playerStats, option, outcome, outcomesSoFar);
        state.turn = { phase: 'writing', ...nothingWritten };
      },
    }),
    /** The game picked the turn's scenario type: the choice is resolved, the model is asked. */
    scenarioPicked: inPhases<ResolvedChoice>({
      writing({ story }, choice) {
        if (story.lastChoice) return;
        story.scenarioHistory.push(choice.scenarioType);
        story.lastChoice = choice;
      },
    }),
    segmentStreamed: inPhases<string>(
      each(['opening', 'writing'], (state, text: string) => {
        Object.assign(state.turn, { streamed: text, thinking: false });
      }),
    ),
    /** A reasoning model thinks before it writes: a quiet 'thinking' until its words come. */
    reasoningStreamed: inPhases<void>(
      each<void>(['opening', 'writing'], (state) => {
        if (writingTurn(state).streamed === '') Object.assign(state.turn, { thinking: true });
      }),
    ),
    /**
     * The model's segment is in and joins the story. A segment that goes on waits for its
     * options (optionsOffered); a final one concludes: its summary and the recap.
     */
    segmentReceived: inPhases<Segment>({
      writing(state, { text, isFinal }) {
        const { story } = state;
        if (story.storyLog.at(-1)?.kind !== 'choice') return;
        story.storyLog.push({ kind: 'paragraph', text });
        story.previousParagraph = text;
        story.options = [];
        story.isFinal = isFinal;
        sheetTurnBegan(story);
        state.summary = 'pending';
        state.turn = { phase: isFinal ? 'concluding' : 'writing', ...nothingWritten };
      },
    }),
    /** The choices the new segment ends on: the player may choose now, the summary behind. */
    optionsOffered: inPhases<StoryOption[]>({
      writing(state, options) {
        if (state.story.storyLog.at(-1)?.kind !== 'paragraph') return;
        state.story.options = options;
        state.turn = { phase: 'choosing' };
      },
    }),
    /**
     * The reply left out the segment's summary: the game asks for it behind the options (the
     * game's saga hears this), and the next turn waits for it.
     */
    summaryMissing: inPhases<void>(
      each<void>(PLAYING_PHASES, (state) => {
        state.summary = 'pending';
      }),
    ),
    /** The latest segment's summary is in (the next turn may already be waiting for it). */
    summaryStored: inPhases<string>(
      each(PLAYING_PHASES, (state, summary: string) => {
        if (state.summary !== 'pending') return;
        state.story.storySummary.push(summary);
        state.summary = 'written';
        // Any wait shown now was the summary's: the turn asks for nothing before it.
        if (state.turn.phase === 'writing' || state.turn.phase === 'concluding') {
          state.turn.wait = null;
        }
      }),
    ),
    turnRetryScheduled: inPhases<GameWait>(
      each(WRITING_PHASES, (state, wait: GameWait) => {
        // What streamed in before the failure is not the story: it goes while the game waits.
        Object.assign(state.turn, { ...nothingWritten, wait });
      }),
    ),
    /**
     * SPEC.md section 4: loading stops and 'Failed to fetch story data' is shown. A flow that
     * broke while the player was choosing (failurePolicy.ts) fails the turn too, to be tried
     * again.
     */
    turnFailed: inPhases<Problem | null>(each([...WRITING_PHASES, 'choosing'], failed)),
    /**
     * Try again after a failed turn: the recap once the story has ended, else the same choice
     * and roll, asked for once more; a turn that failed before its roll goes back to its
     * choices.
     */
    turnRetryRequested: inPhases<void>({
      failed(state) {
        const { story } = state;
        if (story.isFinal) state.turn = { phase: 'concluding', ...nothingWritten };
        else if (isTurnUnwritten(story)) state.turn = { phase: 'writing', ...nothingWritten };
        else if (story.options.length > 0) state.turn = { phase: 'choosing' };
      },
    }),
    scoreComputed: inPhases<{ scoreBreakdown: ScoreBreakdown; score: number }>({
      concluding({ story }, { scoreBreakdown, score }) {
        story.scoreBreakdown = scoreBreakdown;
        story.finalScore = score;
      },
    }),
    recapReceived: inPhases<Recap>({
      concluding(state, recap) {
        state.story.recap = recap;
        state.turn = { phase: 'ended' };
      },
    }),
    /** Cancel on the overlay, Return to Home, or leaving the game: any wait stops, and what
     * was left unfinished (the opening, a turn, the recap) can be tried again. */
    waitCancelled: inPhases<void>({
      ...each<void>(['opening', 'writing'], (state) => failed(state, null)),
      concluding(state) {
        // A final segment's summary is written within the turn, so it stops with it; any other
        // runs on behind the options, and the next turn still waits for it.
        state.summary = 'written';
        failed(state, null);
      },
    }),
    returnedHome(state) {
      // Leaving the game stops the summary being written behind the options (the game's saga).
      state.summary = 'written';
      if (state.turn.phase !== 'keyNeeded') state.turn = { phase: 'home' };
    },
    /**
     * A saved story opened from the list (SPEC.md section 4), where it was left: the ending
     * screen for a finished story, a turn saved before its segment came back stopped (or, with
     * no rewrite left, failed), else its choices. The session's key is kept.
     */
    savedStoryResumed(state, action: PayloadAction<Story>) {
      if (state.turn.phase === 'keyNeeded') return state;
      const story = action.payload;
      return { ...initialGameState, apiKey: state.apiKey, story, turn: phaseOf(story) };
    },
    /**
     * Stop while a segment is written: the request ends at once and what streamed is dropped.
     * During the opening, back to the name with the genre, portrait and name kept; during a
     * turn, the choice and its roll stand and the turn waits to be written again.
     */
    writingStopped(state) {
      if (!canStop(state)) return;
      state.turn = state.turn.phase === 'opening' ? { phase: 'naming' } : { phase: 'stopped' };
    },
    /**
     * 'Write it again': the latest segment is asked for anew for the same choice, with the same
     * rolled outcome and scenario (never a new roll). The paragraph it replaces, and its
     * summary, leave the story; after a Stop there is none to take back.
     */
    rewriteRequested(state) {
      if (!canRewrite(state)) return;
      const { story } = state;
      if (state.turn.phase === 'choosing') {
        // The replaced paragraph's summary: stored, or still being written (no longer wanted).
        dropLatestSummary(story);
        story.storyLog.pop();
        sheetTurnTakenBack(story);
        state.summary = 'written';
        story.previousParagraph = latestParagraph(story)?.text ?? '';
      }
      story.turnRewrites += 1;
      story.rewrites += 1;
      story.options = [];
      state.turn = { phase: 'writing', ...nothingWritten };
    },
    /**
     * The player rewrote the latest paragraph: the model reads the edited text from now on, and
     * its summary is written again from it (the game's saga hears this).
     */
    paragraphEdited(state, action: PayloadAction<string>) {
      const text = action.payload.trim();
      const entry = state.story.storyLog.at(-1);
      if (!canEdit(state) || entry?.kind !== 'paragraph') return;
      if (text.length < PARAGRAPH_MIN_CHARS || text.length > PARAGRAPH_MAX_CHARS) return;
      if (text === entry.text) return;
      entry.text = text;
      entry.edited = true;
      state.story.previousParagraph = text;
      summarizeAgain(state);
    },
    /**
     * The player rewrote their own typed action of this turn: a rewrite asks for it as edited,
     * and the segment's summary, which tells the choice, is written again.
     */
    choiceEdited(state, action: PayloadAction<string>) {
      const text = action.payload.trim();
      const entry = latestChoice(state.story);
      const choice = state.story.lastChoice;
      if (!canEdit(state) || !entry || !choice?.freeText) return;
      if (text === '' || text.length > FREE_TEXT_MAX_CHARS || text === entry.text) return;
      entry.text = text;
      entry.edited = true;
      choice.option.text = text;
      if (state.turn.phase === 'choosing') summarizeAgain(state);
    },
    /** The player corrected one entry of the story's memory (the summary at `index`). */
    memoryCorrected: inPhases<{ index: number; text: string }>(
      each(PLAYING_PHASES, ({ story }, payload: { index: number; text: string }) => {
        const { index } = payload;
        const text = payload.text.trim();
        if (!Number.isInteger(index) || index < 0 || index >= story.storySummary.length) return;
        if (text === '' || text.length > MEMORY_ENTRY_MAX_CHARS) return;
        story.storySummary[index] = text;
      }),
    ),
    /** The pinned note, told to the model every turn; an empty note unpins it. */
    storyNotePinned: inPhases<string>(
      each(PLAYING_PHASES, ({ story }, payload: string) => {
        const note = payload.trim();
        if (note.length <= STORY_NOTE_MAX_CHARS) story.storyNote = note;
      }),
    ),
    /**
     * The player turned pictures on or off for this story (issue 41), from the naming screen
     * to the ending: what is drawn already stays; with them off, nothing more is asked for.
     */
    illustrationChosen: inPhases<boolean>(
      each(
        ['naming', 'opening', 'openingFailed', ...PLAYING_PHASES, 'ended'],
        ({ story }, on: boolean) => {
          story.illustrated = on === true;
        },
      ),
    ),
    ...sheetReducers,
    ...lorebookReducers,
    ...costReducers,
  },
  selectors: {
    selectGame: (game) => game,
    /** The story as it is saved: a new reference only when the story itself changed. */
    selectStory: (game) => game.story,
    selectTurn: (game) => game.turn,
    selectKeyCheck: (game) => game.keyCheck,
    /** The narrative as it streams in: the one thing that changes on every frame of a turn. */
    selectStreamingText: (game) => ('streamed' in game.turn ? game.turn.streamed : ''),
    /** Whether a paragraph is being written: changes twice a turn, not with every update. */
    selectIsWriting: (game) => 'streamed' in game.turn && game.turn.streamed !== '',
  },
});

export const gameActions = gameSlice.actions;
export const { scoreComputed } = gameActions;

export const {
  selectGame,
  selectStory,
  selectTurn,
  selectKeyCheck,
  selectStreamingText,
  selectIsWriting,
} = gameSlice.selectors;

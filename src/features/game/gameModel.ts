/**
 * The game's state as data: the story as it is saved, the turn as a phase, the events'
 * payloads, and the result a finished story gives. Types, limits and pure functions only,
 * importing nothing of the slice, so the slice and the story's reader depend on it and never on
 * each other.
 */
import type { SheetEntry } from '../../engine/storySheet';
import type { StoryCost } from './cost/storyCost';
import type { LoreEntry } from '../../engine/loreEntries';
import { endingScore } from '../../engine/score';
import type {
  Alignment,
  Outcome,
  PlayerStats,
  ScenarioType,
  ScoreBreakdown,
  StoryOption,
} from '../../engine/types';

/** SPEC.md section 4, Game flow: one /game view per stage. */
export type GameStage =
  | 'apiKeyInput'
  | 'loadOrCreate'
  | 'genreSelection'
  | 'characterImageSelection'
  | 'characterSelection'
  | 'loading'
  | 'playing'
  | 'endingScreen';

/**
 * One line of the story log: the model's paragraph, or what the player chose. `edited` marks a
 * paragraph or a typed action the player changed: the model sees the edited text.
 */
export type StoryEntry =
  | { kind: 'paragraph'; text: string; edited?: boolean }
  | { kind: 'choice'; text: string; outcome: Outcome | null; freeText: boolean; edited?: boolean };

/**
 * The player's hand on the story. A turn may be written again at most 3 times (its
 * roll never changes); Stop is offered only while a rewrite is left, since a stopped turn goes
 * on by being written again.
 */
export const MAX_REWRITES_PER_TURN = 3;
/** The pinned note goes into every story prompt: at most this many characters. */
export const STORY_NOTE_MAX_CHARS = 500;
/** The longest a player's own action may be (typed, or edited later). */
export const FREE_TEXT_MAX_CHARS = 500;
/**
 * An edited paragraph's length: at least what a story needs to be saved (SPEC.md section 9's 20
 * characters), at most more than a model's reply could hold.
 */
export const PARAGRAPH_MIN_CHARS = 20;
export const PARAGRAPH_MAX_CHARS = 4000;
/** The longest a corrected memory entry may be. */
export const MEMORY_ENTRY_MAX_CHARS = 600;

/**
 * Why the key screen refused a key (SPEC.md section 8 and the causes a check can name). Kept
 * apart from the story's own error: a key checked mid-story never wipes out a failed turn.
 */
export type KeyErrorCode =
  | 'emptyApiKey'
  | 'walletNotVerified'
  | 'invalidApiKey'
  | 'modelUnavailable'
  | 'providerUnreachable'
  | 'keyCheckFailed'
  | 'noCredit'
  | 'dailyLimit'
  | 'originNotAllowed'
  | 'localNetworkDenied'
  | 'localNetworkInsecure';

/** Why a request to the model failed, as the player is told it under the main message. */
export type ProblemReason =
  | 'invalidApiKey'
  | 'modelUnavailable'
  | 'providerUnreachable'
  /** The browser's Local Network Access permission is refused: nothing reached the server. */
  | 'localNetworkDenied'
  /** A plain http page, which a browser never lets reach the player's own computer. */
  | 'localNetworkInsecure'
  | 'noAnswer'
  | 'retriesExhausted'
  | 'replyCutOff'
  | 'dailyLimit'
  | 'noCredit'
  | 'requestTooLarge'
  | 'providerError'
  | 'unexpected';

/**
 * The cause of a failure (DESIGN.md: errors say what happened): a reason the catalogues word in
 * the interface language, and the provider's own message, quoted as it said it.
 */
export interface Problem {
  reason: ProblemReason;
  /** The provider preset's id (its name is worded by the views). */
  provider: string;
  model: string;
  /** For an unreachable provider: the address asked. */
  origin: string | null;
  /** The player's own server (local or custom preset): the CORS hint applies. */
  ownServer: boolean;
  /** What the provider said, verbatim (never holds the key). */
  providerMessage: string | null;
  status: number | null;
  /** For a daily limit: when it resets (ms since the epoch), when the answer said. */
  resetsAt: number | null;
  /** For a limit: whether it counts requests or tokens, when the answer said. */
  limitMetric: 'requests' | 'tokens' | null;
}

/** A wait the player can see and cancel (DESIGN.md: endless retries stay visible). */
export interface GameWait {
  /** A limit waited out, a garbled or dropped reply asked again, a cut-off one given room. */
  reason: 'rateLimited' | 'unreadableReply' | 'interrupted' | 'cutOff';
  attempt: number;
  /** When the next try starts (ms since the epoch); null for an immediate retry. */
  retryAt: number | null;
  /**
   * For a per-minute limit: the tokens the request asked again reserves of the minute's budget
   * (prompt and output limit, llm/reservation.ts).
   */
  reserves?: number;
}

/** The scored recap (SPEC.md section 3, Ending recap), as the model gave it. */
export interface Recap {
  wrapUpParagraph: string;
  bigMoment: string;
  frequentActivity: string;
  characterTraitHighlight: string;
  themeExploration: string;
  overallScore: number;
  endingType: string;
}

/**
 * The finished game as the leaderboard keeps it (SPEC.md section 3, game_results): what Save
 * Adventure Results sends.
 */
export interface GameResult {
  score: number;
  ending_type: string;
  character_name: string;
  genre: string;
  turn_count: number;
  detailed_stats: Record<string, unknown>;
}

/**
 * The result a finished story gives, or null before its recap: what the ending screen shows and
 * Save Adventure Results sends. The score is the story's own, computed once by the conclusion
 * (SPEC.md section 9); a story saved before the game kept it has it from the same formula, the
 * one the database checks a saved score against.
 */
export function gameResultOf(story: Story): GameResult | null {
  const { recap, scoreBreakdown, playerStats, turnCount } = story;
  if (recap === null) return null;
  const score =
    story.finalScore ??
    endingScore({
      scoreBreakdown,
      turnCount,
      successRate: playerStats.successRate,
      endingType: recap.endingType,
    }).score;
  return {
    score,
    ending_type: recap.endingType,
    character_name: story.chosenCharacter,
    genre: story.chosenGenre,
    turn_count: turnCount,
    detailed_stats: {
      scoreBreakdown,
      playerStats,
      turnCount,
      moralChoices: story.moralChoices,
      successfulChoices: story.outcomes.filter((outcome) => outcome === 'success').length,
      enhancedScore: score,
      rewrites: story.rewrites,
    },
  };
}

export interface CharacterProfile {
  gender: string;
  bio: string;
  traits: string[];
  facialFeatures: string[];
}

/**
 * The story sheet (engine/storySheet.ts), and the sheet as it was before the latest paragraph's
 * reply changed it: Write it again takes that reply's changes back with its paragraph. The
 * player's own changes are made to both, so a rewrite never undoes them.
 */
export interface StorySheet {
  entries: SheetEntry[];
  beforeLatest: SheetEntry[];
}

/**
 * A saved story (SPEC.md section 3, "Saved story": the story plus the rest of the game needed to
 * resume it): everything the stories feature keeps, and nothing of the session (the key, waits,
 * errors, streamed text). `parseStory` is its one reader.
 */
export interface Story {
  chosenGenre: string;
  /** Portrait number 1..32 (public/characters/N.png). */
  chosenImage: number;
  chosenCharacter: string;
  characterGender: string;
  characterBio: string;
  characterTraits: string[];
  characterFacialFeatures: string[];
  /** SPEC.md 'storyAndUserInputs': paragraphs and choices, in order. */
  storyLog: StoryEntry[];
  /** The latest paragraph (SPEC.md 'previousParagraph'). */
  previousParagraph: string;
  options: StoryOption[];
  /**
   * One summary per segment, the story's memory: the prompts carry the newest whole and older
   * ones as their gist, within a token budget (prompts/types.ts). The player may correct any.
   */
  storySummary: string[];
  /** What the story has established, kept by the model and corrected by the player. */
  storySheet: StorySheet;
  /** The player's pinned note (at most STORY_NOTE_MAX_CHARS), told to the model every turn. */
  storyNote: string;
  /**
   * The player's lorebook (src/engine/lorebook.ts): entries told to the model when the story
   * mentions them, or always. The player's own text, kept with the story and never published.
   */
  lorebook: LoreEntry[];
  /** The tokens the story's requests used, as providers reported them, and their price. */
  cost: StoryCost;
  /**
   * The player asked for this story to be illustrated (issue 41: opt-in, per story): its
   * opening and ending are drawn, and a moment when asked. The pictures are kept apart.
   */
  illustrated: boolean;
  /** Rewrites in this story (shown on the ending screen and the leaderboard). */
  rewrites: number;
  /** Rewrites of the current turn (at most MAX_REWRITES_PER_TURN). */
  turnRewrites: number;
  /**
   * The current turn's choice and its roll, once the scenario is picked: a turn written again,
   * tried again, or resumed after a reload keeps them (nobody fishes for a success).
   */
  lastChoice: ResolvedChoice | null;
  turnCount: number;
  /** The model ended the story (SPEC.md section 4, from turn 7). */
  isFinal: boolean;
  scenarioHistory: ScenarioType[];
  moralChoices: Alignment[];
  outcomes: Outcome[];
  recap: Recap | null;
  /** SPEC.md section 3: they follow the game's own rolls, never the model's echo. */
  playerStats: PlayerStats;
  scoreBreakdown: ScoreBreakdown;
  /** The ending score, computed by the engine from the recap (SPEC.md section 9). */
  finalScore: number | null;
}

/** What a paragraph being written shows: its words so far, a thinking model, a wait. */
export interface Writing {
  /** The narrative as it streams in, before the reply is complete. */
  streamed: string;
  /** The model is thinking before it writes (a reasoning model); its thoughts are not shown. */
  thinking: boolean;
  wait: GameWait | null;
}

/**
 * Where the game is (SPEC.md section 4, Game flow), one phase at a time: the setup screens, the
 * opening being written, then each turn: choosing, writing, stopped or failed, and at the end
 * concluding (the recap) and ended. Every event names the phases it is heard in (gameSlice.ts);
 * in any other it changes nothing.
 */
export type Turn =
  | { phase: 'keyNeeded' }
  | { phase: 'home' }
  | { phase: 'choosingGenre' }
  | { phase: 'choosingPortrait' }
  | { phase: 'naming' }
  /** The profile, the opening scene and its summary (SPEC.md section 4, progress in percent). */
  | ({ phase: 'opening'; progress: number } & Writing)
  | { phase: 'openingFailed'; problem: Problem | null }
  | { phase: 'choosing' }
  /** The choice is rolled and its segment asked for; then its options. */
  | ({ phase: 'writing' } & Writing)
  /** The player stopped the segment: the choice and its roll stand, to be written again. */
  | { phase: 'stopped' }
  /** The segment (or, once the story has ended, the recap) failed: Try again goes on. */
  | { phase: 'failed'; problem: Problem | null }
  /** The model ended the story: its summary and the recap are written. */
  | ({ phase: 'concluding' } & Writing)
  | { phase: 'ended' };

export type Phase = Turn['phase'];

/** The key check (SPEC.md section 8), beside the story: a key checked mid-story never touches it. */
export type KeyCheck =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'refused'; error: KeyErrorCode; detail: Problem | null };

export interface GameState {
  /** The player's key: only in memory and localStorage 'apiKey', never in saved stories. */
  apiKey: string;
  keyCheck: KeyCheck;
  turn: Turn;
  /**
   * The latest segment's summary: in, or still being written behind the options (the next turn
   * waits for it). A flow of its own beside the turn; session state, never saved.
   */
  summary: 'written' | 'pending';
  story: Story;
}

export interface ResolvedChoice {
  /**
   * The turn this choice plays: the first choice is turn 1. The outcome roll, the scenario
   * rules, the conclusion check and the prompt's "Turn N" all count by it (SPEC.md section 4).
   */
  turn: number;
  /** The option chosen, or the player's own words as a medium, neutral choice. */
  option: StoryOption;
  freeText: boolean;
  /** The game's own roll (DESIGN.md: the model's echo is not trusted). */
  outcome: Outcome;
  scenarioType: ScenarioType;
  /** Every outcome so far, this one included (the success rate counts them). */
  outcomesSoFar: Outcome[];
}

/** A choice with its outcome rolled, before the scenario type is picked. */
export type RolledChoice = Omit<ResolvedChoice, 'scenarioType'>;

/** A segment of the story as the model wrote it; its options, if it goes on, come after it. */
export interface Segment {
  text: string;
  isFinal: boolean;
}

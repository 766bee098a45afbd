// The game feature's public API: its state (the story and the turn), events, selectors, the
// story's one reader (parseStory), and its flows (the root saga and one worker per flow, for
// tests and tools). Views stay out: the routes fetch them by path. The home bundle imports none of the
// flows (package.json sideEffects lets webpack drop them); the saga loader fetches them.
export { isStoryEvent } from './storyEvents';
// The views another feature's page shows too come through sharedViews.ts: they bring their
// stylesheet, and this index stays importable by Node tools (scripts/bench).
export {
  API_KEY_STORAGE_KEY,
  gameActions,
  gameSlice,
  initialGameState,
  scoreComputed,
  selectGame,
  selectKeyCheck,
  selectStory,
  selectTurn,
} from './gameSlice';
export type {
  GameResult,
  GameStage,
  GameState,
  KeyErrorCode,
  Phase,
  Recap,
  ResolvedChoice,
  RolledChoice,
  Segment,
  Story,
  StoryEntry,
  Turn,
} from './gameSlice';
export { MAX_REWRITES_PER_TURN, gameResultOf } from './gameModel';
export {
  canEdit,
  canRewrite,
  canStop,
  initialStory,
  isStoryUnderWay,
  phaseOf,
} from './turn/turnRules';
export { isStoryProblem, parseStory, type StoryProblem } from './story/parseStory';
export {
  canChoose,
  isResumable,
  selectGameStage,
  selectIsResumable,
  stageOf,
} from './turn/gameSelectors';
export { PORTRAIT_COUNT, portraitNumber, portraitSrc } from './portraits';
export { tellNewStories } from './newStory';
export { flowFor, gameSaga } from './sagas/gameSaga';
export type { GameContext } from './sagas/sagaContext';
export type { PicturePlace, PictureSlot } from './views/StoryLog';
export { KEY_CHECK_TIMEOUT_MS, checkKey } from './sagas/keyCheck';
export { openingGeneration } from './sagas/opening';
export { playTurn, retryTurn } from './sagas/turn';
export { summaryFallback } from './sagas/summaries';
export { concludeStory, conclusionCheck } from './sagas/conclusion';
export {
  MAX_INTERRUPTED_PAUSE_MS,
  RATE_LIMIT_JITTER_MS,
  RETRY_LIMITS,
  STREAM_UPDATE_SPACING_MS,
  askModel,
  rateLimitWait,
} from './sagas/askModel';
export { FIRST_ENDING_TURN } from './turnPrompt';
export { NO_COST } from './cost/storyCost';
export type { CountedUsage, StoryCost, TokenTally } from './cost/storyCost';

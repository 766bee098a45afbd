// The game feature's public API: its state, events, selectors, the resumable snapshot the
// stories feature saves, and its flows (the root saga and one worker per flow, for tests and
// tools). Views stay out: the routes fetch them by path. The home bundle imports none of the
// flows (package.json sideEffects lets webpack drop them); the saga loader fetches them.
export {
  API_KEY_STORAGE_KEY,
  canChoose,
  canEdit,
  canRewrite,
  canStop,
  gameActions,
  isStoryUnderWay,
  gameSlice,
  initialGameState,
  selectGame,
  selectGameStage,
} from './gameSlice';
export type {
  GameStage,
  GameState,
  KeyErrorCode,
  Recap,
  ResolvedChoice,
  RolledChoice,
  Segment,
  StoryEntry,
} from './gameSlice';
export { MAX_REWRITES_PER_TURN } from './gameModel';
export {
  initialPlayerStatsState,
  playerStatsSlice,
  scoreComputed,
  selectPlayerStats,
} from './playerStatsSlice';
export type { PlayerStatsState } from './playerStatsSlice';
export { PORTRAIT_COUNT, portraitNumber, portraitSrc } from './portraits';
export {
  isResumable,
  restoreGame,
  selectIsResumable,
  selectResumableGame,
  type ResumableGame,
} from './resumableGame';
export { flowFor, gameSaga } from './sagas/gameSaga';
export type { GameContext } from './sagas/sagaContext';
export { KEY_CHECK_TIMEOUT_MS, checkKey } from './sagas/keyCheck';
export { openingGeneration } from './sagas/opening';
export { playTurn, retryTurn } from './sagas/turn';
export { summaryFallback } from './sagas/summaries';
export { writeRecap } from './sagas/recap';
export {
  MAX_INTERRUPTED_PAUSE_MS,
  RATE_LIMIT_JITTER_MS,
  RETRY_LIMITS,
  STREAM_UPDATE_SPACING_MS,
  askModel,
  rateLimitWait,
} from './sagas/askModel';
export { FIRST_ENDING_TURN } from './sagas/gameState';

// The game feature's public API: its state, events, selectors and the resumable snapshot the
// stories feature saves. Views and sagas stay out: the routes and the saga loader fetch them by
// path, so they load with the game and never with the home screen.
export {
  API_KEY_STORAGE_KEY,
  canChoose,
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
  Segment,
  StoryEntry,
} from './gameSlice';
export {
  initialPlayerStatsState,
  playerStatsSlice,
  scoreComputed,
  selectPlayerStats,
} from './playerStatsSlice';
export type { PlayerStatsState } from './playerStatsSlice';
export { PORTRAIT_COUNT, portraitNumber, portraitSrc } from './portraits';
export { isResumable, restoreGame, selectResumableGame, type ResumableGame } from './resumableGame';

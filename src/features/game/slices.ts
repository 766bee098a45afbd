// The game's state, for the store (home bundle); sagas and views load with the game.
export { gameSlice } from './gameSlice';
export { playerStatsSlice } from './playerStatsSlice';

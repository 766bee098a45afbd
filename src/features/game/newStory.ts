/**
 * The game's word that it has taken a new story. Start New Game is a command the game may
 * refuse (on the key screen there is no game to start), so what keeps something of the story
 * being played, such as its saved record (the stories feature), hears this event instead.
 * In the home bundle: a store that began mid-story has not loaded the game's flows.
 */
import { put, select, takeEvery } from 'typed-redux-saga';
import { gameActions, type GameState } from './gameSlice';
import { initialStory } from './turn/turnRules';

const selectGame = (state: { game: GameState }) => state.game;

/** After each Start New Game: newStoryBegun, if the game is now at a new story's first screen. */
export function* tellNewStories() {
  yield* takeEvery(gameActions.newGameStarted, function* newStoryIfTaken() {
    const { turn, story } = yield* select(selectGame);
    if (turn.phase === 'choosingGenre' && story === initialStory) {
      yield* put(gameActions.newStoryBegun());
    }
  });
}

/**
 * A new story of a genre the player keeps a lorebook for (the settings' genreLorebooks) starts
 * with a copy of it: told as game/genreLorebookTaken right after the genre is chosen. The copy
 * is the story's own from then on; the kept one changes only when the player saves it again.
 */
import { put, select } from 'typed-redux-saga';
import { selectGenreLorebooks } from '../../settings';
import { gameActions, type GameState } from '../gameSlice';

const selectGenre = (state: { game: GameState }) => state.game.story.chosenGenre;

export function* startWithGenreLorebook() {
  const genre = yield* select(selectGenre);
  const kept = yield* select(selectGenreLorebooks);
  const lorebook = kept[genre];
  if (lorebook && lorebook.length > 0) yield* put(gameActions.genreLorebookTaken(lorebook));
}

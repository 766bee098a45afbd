import { GamePage } from '../features/game/GamePage';
import {
  LocalStoriesDeletedNote,
  SaveGameButton,
  SavedStoriesList,
  StartNewGame,
  StoriesNotice,
} from '../features/stories';

/** /game: the game's views, with the saved stories' parts where the game leaves room for them. */
export function GameRoute() {
  return (
    <>
      <GamePage
        savedStories={<SavedStoriesList />}
        startNewGame={<StartNewGame />}
        saveGame={<SaveGameButton />}
        resultNote={<LocalStoriesDeletedNote />}
      />
      <StoriesNotice />
    </>
  );
}

import { GamePage } from '../features/game/GamePage';
import { SaveResultButton } from '../features/leaderboard';
import {
  LocalStoriesDeletedNote,
  SaveGameButton,
  SavedStoriesList,
  StartNewGame,
  StoriesNotice,
} from '../features/stories';

/**
 * /game: the game's views, with the saved stories' parts and the leaderboard's button where the
 * game leaves room for them.
 */
export function GameRoute() {
  return (
    <>
      <GamePage
        savedStories={<SavedStoriesList />}
        startNewGame={<StartNewGame />}
        saveGame={<SaveGameButton />}
        saveResult={(result) => <SaveResultButton result={result} />}
        resultNote={<LocalStoriesDeletedNote />}
      />
      <StoriesNotice />
    </>
  );
}

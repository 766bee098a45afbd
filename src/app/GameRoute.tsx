import type { GameResult } from '../features/game';
import { GamePage } from '../features/game/GamePage';
import { SaveResultButton } from '../features/leaderboard';
import {
  LocalStoriesDeletedNote,
  PublishCurrentStory,
  SaveGameButton,
  SavedStoriesList,
  StartNewGame,
  StoriesNotice,
  selectCurrentRecord,
} from '../features/stories';
import {
  IllustrateSlot,
  illustrationOffered,
  pictureAt,
  picturesShown,
} from '../features/pictures/pictureSlots';
import { useAppSelector } from '../shared/hooks';

/**
 * /game: the game's views, with the saved stories' parts, the leaderboard's button and, once they
 * have something to show, "Illustrate this story" and the story's pictures where the game leaves
 * room for them.
 */
export function GameRoute() {
  const offered = useAppSelector(illustrationOffered);
  const shown = useAppSelector(picturesShown);
  return (
    <>
      <GamePage
        savedStories={<SavedStoriesList />}
        startNewGame={<StartNewGame />}
        saveGame={<SaveGameButton />}
        saveResult={(result) => <SaveResultOfStory result={result} />}
        resultNote={<LocalStoriesDeletedNote />}
        publishStory={<PublishCurrentStory />}
        illustrate={offered ? <IllustrateSlot /> : undefined}
        pictureAt={shown ? pictureAt : undefined}
      />
      <StoriesNotice />
    </>
  );
}

/** Save Adventure Results, naming the story it came from (its cloud id). */
function SaveResultOfStory({ result }: { result: GameResult }) {
  const storyId = useAppSelector(selectCurrentRecord)?.cloudId ?? null;
  return <SaveResultButton result={result} storyId={storyId} />;
}

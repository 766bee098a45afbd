import type { ListedStory } from '../browserPlace';
import { SavedStoryCard } from './SavedStoryCard';
import './storyCards.css';

/** The saved stories' cards, one per story, in the order given. */
export function SavedStoryCards({ stories }: { stories: readonly ListedStory[] }) {
  return (
    <ul className="saved-list__cards">
      {stories.map((story) => (
        <li key={story.id}>
          <SavedStoryCard story={story} />
        </li>
      ))}
    </ul>
  );
}

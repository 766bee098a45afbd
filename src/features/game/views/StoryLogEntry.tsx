import { FormattedMessage } from 'react-intl';
import type { StoryEntry } from '../gameSlice';
import { OutcomeBadge } from './StoryTags';

/**
 * One line of the story log: a paragraph of the model's, or what the player chose, with its
 * outcome from the 2nd turn. Model text is always React text, never HTML.
 */
export function StoryLogEntry({ entry }: { entry: StoryEntry }) {
  if (entry.kind === 'paragraph') return <p className="story-paragraph">{entry.text}</p>;
  return (
    <p className="story-choice">
      <span className="story-choice__marker" aria-hidden="true">
        ➤
      </span>
      <span className="visually-hidden">
        <FormattedMessage id="game.play.youChose" />{' '}
      </span>
      <span className="story-choice__text">{entry.text}</span>
      {entry.outcome !== null && <OutcomeBadge outcome={entry.outcome} />}
    </p>
  );
}

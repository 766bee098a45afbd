import { FormattedMessage } from 'react-intl';
import type { Outcome } from '../../../engine/types';
import type { PublishedEntry } from './publishedStoryApi';

// As the game's story log shows them (src/features/game/views/StoryLogEntry.tsx): the outcome
// carries a word and an icon as well as a colour (DESIGN.md, Look and feel).
const OUTCOME_ICONS: Record<Outcome, string> = { success: '✓', partial: '◐', failure: '✕' };

/** A paragraph, or the player's choice and its outcome; the text always as text. */
export function PublishedEntryLine({ entry }: { entry: PublishedEntry }) {
  if (entry.kind === 'paragraph') {
    return <p className="published-paragraph">{entry.text}</p>;
  }
  return (
    <p className="published-choice">
      <span className="published-choice__marker" aria-hidden="true">
        ➤
      </span>
      <span className="visually-hidden">
        <FormattedMessage id="published.chose" />{' '}
      </span>
      <span className="published-choice__text">{entry.text}</span>
      {entry.outcome !== null && (
        <span className={`published-outcome published-outcome--${entry.outcome}`}>
          <span aria-hidden="true">{OUTCOME_ICONS[entry.outcome]}</span>
          <FormattedMessage id={`game.outcome.${entry.outcome}`} />
        </span>
      )}
    </p>
  );
}

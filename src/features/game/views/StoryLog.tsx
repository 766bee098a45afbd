import { type Ref } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { StoryEntry } from '../gameSlice';
import { OutcomeBadge } from './StoryTags';

interface StoryLogProps {
  entries: StoryEntry[];
  /** The narrative as it streams in; empty when nothing is being written. */
  streamingText: string;
  /** Given to the latest paragraph, so the view can bring it into view after a turn. */
  latestParagraphRef: Ref<HTMLParagraphElement>;
}

/**
 * The story so far: the model's paragraphs and the player's choices, in order. Model text is
 * always React text, never HTML. The log is a polite live region, so a screen reader hears
 * each finished paragraph once; the paragraph still being written is hidden from it, or every
 * streamed fragment would be read out.
 */
export function StoryLog({ entries, streamingText, latestParagraphRef }: StoryLogProps) {
  const intl = useIntl();
  const latestParagraph = entries.findLastIndex((entry) => entry.kind === 'paragraph');
  return (
    <div
      className="story-log"
      role="log"
      aria-live="polite"
      aria-label={intl.formatMessage({ id: 'game.play.storyLabel' })}
    >
      {entries.map((entry, index) =>
        entry.kind === 'paragraph' ? (
          <p
            // The log only grows, so a position is a stable key.
            key={index}
            className="story-paragraph"
            ref={index === latestParagraph ? latestParagraphRef : undefined}
          >
            {entry.text}
          </p>
        ) : (
          <p key={index} className="story-choice">
            <span className="story-choice__marker" aria-hidden="true">
              ➤
            </span>
            <span className="visually-hidden">
              <FormattedMessage id="game.play.youChose" />{' '}
            </span>
            <span className="story-choice__text">{entry.text}</span>
            {entry.outcome !== null && <OutcomeBadge outcome={entry.outcome} />}
          </p>
        ),
      )}
      {streamingText !== '' && (
        <p className="story-paragraph story-paragraph--writing" aria-hidden="true">
          {streamingText}
          <span className="story-caret" />
        </p>
      )}
    </div>
  );
}

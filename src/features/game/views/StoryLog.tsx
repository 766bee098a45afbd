import { memo, type Ref } from 'react';
import { useIntl } from 'react-intl';
import type { StoryEntry } from '../gameSlice';
import { StoryLogEntry } from './StoryLogEntry';

interface StoryLogProps {
  entries: StoryEntry[];
  /** The narrative as it streams in; empty when nothing is being written. */
  streamingText: string;
  /** The log's element, so the view can bring the latest paragraph into view after a turn. */
  logRef?: Ref<HTMLDivElement>;
}

/**
 * An entry never changes once written (the slice only appends, and keeps the objects it has),
 * so each renders once: appending a turn, or a streamed fragment, renders only what is new,
 * however long the story (issue 13: one frame of work per turn at turn 100).
 */
const WrittenEntry = memo(StoryLogEntry);

/**
 * The story so far: the model's paragraphs and the player's choices, in order. The log is a
 * polite live region, so a screen reader hears each finished paragraph once; the paragraph
 * still being written is hidden from it, or every streamed fragment would be read out.
 */
export function StoryLog({ entries, streamingText, logRef }: StoryLogProps) {
  const intl = useIntl();
  return (
    <div
      ref={logRef}
      className="story-log"
      role="log"
      aria-live="polite"
      aria-label={intl.formatMessage({ id: 'game.play.storyLabel' })}
    >
      {entries.map((entry, index) => (
        // The log only grows, so a position is a stable key.
        <WrittenEntry key={index} entry={entry} />
      ))}
      {streamingText !== '' && (
        <p className="story-paragraph story-paragraph--writing" aria-hidden="true">
          {streamingText}
          <span className="story-caret" />
        </p>
      )}
    </div>
  );
}

/** The latest finished paragraph of a log (not the one being written), if any. */
export function latestParagraphIn(log: HTMLElement | null): HTMLElement | null {
  for (let node = log?.lastElementChild; node; node = node.previousElementSibling) {
    const { classList } = node;
    if (classList.contains('story-paragraph') && !classList.contains('story-paragraph--writing')) {
      return node as HTMLElement;
    }
  }
  return null;
}

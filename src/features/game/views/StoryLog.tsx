import { Fragment, memo, useLayoutEffect, useRef, type ReactNode, type Ref } from 'react';
import { useIntl } from 'react-intl';
import { useAppSelector, useAppStore } from '../../../shared/hooks';
import {
  selectIsWriting,
  selectStreamingText,
  type GameState,
  type StoryEntry,
} from '../gameSlice';
import { measureStreamUpdateShown } from '../turnTiming';
import type { ParagraphReader } from './readAloud';
import { StoryLogEntry } from './StoryLogEntry';

/**
 * Where a picture of the story may go (issue 41): under a paragraph, by the turn it tells (the
 * opening's is turn 0), the latest one marked; or the ending's. Another feature fills it.
 */
export type PicturePlace = { turn: number; latest: boolean } | 'ending';
export type PictureSlot = (place: PicturePlace) => ReactNode;

interface StoryLogProps {
  entries: StoryEntry[];
  /** The log's element, so the view can bring the latest paragraph into view after a turn. */
  logRef?: Ref<HTMLDivElement>;
  /** Reads a paragraph aloud; the same object between readings. */
  reader: ParagraphReader;
  /** The key of the paragraph being read (its position in the log), if any. */
  speakingKey: string | null;
  /** The picture under each paragraph, where the story has one (GameSlots.pictureAt). */
  pictureAt?: PictureSlot;
}

/**
 * An entry never changes once written, but for the latest ones a rewrite or an edit replaces
 * (the slice appends, and keeps the objects it does not change), so each renders once:
 * appending a turn renders only what is new, however long the story (npm run bench, budget 4:
 * one frame of work per turn at turn 100).
 */
const WrittenEntry = memo(StoryLogEntry);

/**
 * The story so far: the model's paragraphs and the player's choices, in order. The log is a
 * polite live region, so a screen reader hears each finished paragraph once; the paragraph
 * still being written is hidden from it, or every streamed fragment would be read out.
 *
 * The log renders when an entry is added, never while a paragraph streams: the paragraph being
 * written takes its words from the store itself, so a streamed update renders nothing on the
 * screen (npm run bench, budget 10: the same work per update at turn 100 as at turn 10).
 */
export const StoryLog = memo(function StoryLog({
  entries,
  logRef,
  reader,
  speakingKey,
  pictureAt,
}: StoryLogProps) {
  const intl = useIntl();
  const latest = entries.findLastIndex((entry) => entry.kind === 'paragraph');
  let turn = -1;
  return (
    <div
      ref={logRef}
      className="story-log"
      role="log"
      aria-live="polite"
      aria-label={intl.formatMessage({ id: 'game.play.storyLabel' })}
    >
      <div className="story-log__written">
        {entries.map((entry, index) => (
          // The log grows, and only its last entries are ever replaced (a rewrite, an edit):
          // a position is a stable key, and a replaced entry is a new object that renders anew.
          <Fragment key={index}>
            <WrittenEntry
              entry={entry}
              paragraphKey={String(index)}
              speaking={speakingKey === String(index)}
              reader={reader}
            />
            {entry.kind === 'paragraph' && pictureAt?.({ turn: ++turn, latest: index === latest })}
          </Fragment>
        ))}
      </div>
      <ParagraphBeingWritten />
    </div>
  );
});

/** The narrative as it streams in, with a caret; nothing when nothing is being written. */
function ParagraphBeingWritten() {
  const writing = useAppSelector(selectIsWriting);
  return writing ? <WrittenWords /> : null;
}

/**
 * The words of the paragraph being written, kept in step with the store by the store's own
 * subscription rather than by React: an update writes the new text into the page as the action
 * is dispatched, with no render and no commit (budget 10: at most 2 ms from the action to the
 * words, on a phone's CPU; React's render and commit of this one paragraph took 2 of the 3).
 * The store stays the only source: the text is whatever it holds, so a DevTools jump or a
 * replay shows the right words. React owns the paragraph and the caret; the span's text is
 * this component's alone.
 */
function WrittenWords() {
  const store = useAppStore<{ game: GameState }>();
  const words = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const node = words.current;
    if (!node) return undefined;
    const show = () => {
      const text = selectStreamingText(store.getState());
      if (text === '' || text === node.textContent) return;
      node.textContent = text;
      // Each update timed from its action to its words in the page (turnTiming.ts).
      measureStreamUpdateShown();
    };
    show();
    return store.subscribe(show);
  }, [store]);
  return (
    <p className="story-paragraph story-paragraph--writing" aria-hidden="true">
      <span ref={words} />
      <span className="story-caret" />
    </p>
  );
}

/** The latest finished paragraph of a log (not the one being written), if any. */
export function latestParagraphIn(log: HTMLElement | null): HTMLElement | null {
  const written = log?.querySelector('.story-log__written');
  for (let node = written?.lastElementChild; node; node = node.previousElementSibling) {
    if (node.classList.contains('story-paragraph')) return node as HTMLElement;
  }
  return null;
}

import { FormattedMessage } from 'react-intl';
import type { StoryEntry } from '../gameSlice';
import { ReadAloudButton } from './ReadAloudButton';
import type { ParagraphReader } from './readAloud';
import { StoryChoice, StoryParagraph } from './WrittenStory';

/**
 * One line of the story log: a paragraph of the model's, or what the player chose, with its
 * outcome from the 2nd turn. Model text is always React text, never HTML.
 */
interface StoryLogEntryProps {
  entry: StoryEntry;
  /** The entry's position in the log: which paragraph the reader reads aloud. */
  paragraphKey: string;
  speaking: boolean;
  reader: ParagraphReader;
}

export function StoryLogEntry({ entry, paragraphKey, speaking, reader }: StoryLogEntryProps) {
  if (entry.kind === 'paragraph') {
    return (
      <StoryParagraph text={entry.text}>
        {entry.edited && <EditedMark />}
        <ReadAloudButton
          paragraphKey={paragraphKey}
          text={entry.text}
          speaking={speaking}
          reader={reader}
        />
      </StoryParagraph>
    );
  }
  return (
    <StoryChoice
      text={entry.text}
      outcome={entry.outcome}
      chooser={<FormattedMessage id="game.play.youChose" />}
      mark={entry.edited && <EditedMark />}
    />
  );
}

/** The player changed this text: the model has read it as edited since. */
function EditedMark() {
  return (
    <span className="story-edited">
      <FormattedMessage id="game.hand.edited" />
    </span>
  );
}

import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { loadMessages } from '../../../shared/messageParts';
import { onDemand } from '../../../shared/onDemand';
import './storyHand.css';

/** The panel's contents and their words: downloaded the first time the player opens it. */
const StorySheetPanel = onDemand(() =>
  Promise.all([
    import(/* webpackChunkName: "story-sheet" */ './StorySheetPanel'),
    loadMessages('memory'),
  ]).then(([views]) => views.StorySheetPanel),
);

/**
 * "Story sheet", closed beside "Story so far": what the story has established (the people, items,
 * places, open threads and conditions the model keeps, engine/storySheet.ts), which the player
 * may correct. Worked out only while it is open.
 */
export function StorySheet() {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="story-memory story-sheet"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="story-memory__summary">
        <FormattedMessage id="game.sheet.heading" />
      </summary>
      {open && <StorySheetPanel />}
    </details>
  );
}

import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { loadMessages } from '../../../shared/messageParts';
import { onDemand } from '../../../shared/onDemand';
import './storyHand.css';

/** The panel's contents and their words: downloaded, and worked out, only once it is open. */
const StoryMemoryPanel = onDemand(() =>
  Promise.all([
    import(/* webpackChunkName: "story-memory" */ './StoryMemoryPanel'),
    loadMessages('memory'),
  ]).then(([views]) => views.StoryMemoryPanel),
);

/**
 * "Story so far", closed at the foot of the playing screen. Most games never open it,
 * so what it shows (the next prompt's context, built by the prompt builders) is worked out only
 * while it is open, and its code comes the first time it is. A pinned note the player is still
 * writing is kept here, so closing the panel loses none of it.
 */
export function StoryMemory() {
  const [open, setOpen] = useState(false);
  const [noteDraft, setNoteDraft] = useState<string | null>(null);
  return (
    <details className="story-memory" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="story-memory__summary">
        <FormattedMessage id="game.memory.heading" />
      </summary>
      {open && <StoryMemoryPanel noteDraft={noteDraft} onNoteDraft={setNoteDraft} />}
    </details>
  );
}

import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { loadMessages } from '../../../shared/messageParts';
import { useAppSelector } from '../../../shared/hooks';
import { onDemand } from '../../../shared/onDemand';
import type { GameState } from '../gameSlice';
import type { LoreForm } from './loreForm';
import './storyHand.css';

/** The panel's contents and its words: downloaded only once the player opens it. */
const LorebookPanel = onDemand(async () => {
  const [panel] = await Promise.all([
    import(/* webpackChunkName: "lorebook" */ './LorebookPanel'),
    loadMessages('lore'),
  ]);
  return panel.LorebookPanel;
});

const selectEntryCount = (state: { game: GameState }) => state.game.story.lorebook.length;

/**
 * The lorebook, closed, beside "Story so far" on the play screen and under the name before the
 * opening: it says how many entries it holds, and its panel (code and words) comes the first
 * time it is opened. An entry the player is still writing is kept here, so closing the panel
 * loses none of it.
 */
export function Lorebook() {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<LoreForm | null>(null);
  const count = useAppSelector(selectEntryCount);
  return (
    <details
      className="story-memory lorebook"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="story-memory__summary">
        <FormattedMessage id="game.lore.heading" />
        {count > 0 && (
          <span className="lorebook__count">
            {' · '}
            <FormattedMessage id="game.lore.count" values={{ count }} />
          </span>
        )}
      </summary>
      {open && <LorebookPanel form={form} onForm={setForm} />}
    </details>
  );
}

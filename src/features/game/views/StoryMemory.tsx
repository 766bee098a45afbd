import { useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage } from 'react-intl';
import { shallowEqual } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { estimateTokens } from '../../llm/tokens';
import { storyContext } from '../../llm/prompts';
import {
  MEMORY_ENTRY_MAX_CHARS,
  STORY_NOTE_MAX_CHARS,
  gameActions,
  type GameState,
} from '../gameSlice';
import { TextEditor } from './TurnTools';
import './storyHand.css';

const selectMemory = ({ game }: { game: GameState }) => ({
  summaries: game.storySummary,
  note: game.storyNote,
});

/**
 * "Story so far" (issue 22): what the model is told of the past, in order, as the next turn's
 * prompt tells it (prompts/types.ts, storyContext): the newest summaries whole, older ones
 * shortened to their gist, the oldest left out once the budget is spent. The player may
 * correct any entry, and pin a note that goes into every story prompt.
 */
export function StoryMemory() {
  const dispatch = useAppDispatch();
  const { summaries, note } = useAppSelector(selectMemory, shallowEqual);
  const told = useMemo(() => storyContext(summaries), [summaries]);
  const [correcting, setCorrecting] = useState<number | null>(null);
  // The context holds the newest summaries: entry i is summary `firstTold + i`.
  const firstTold = summaries.length - told.length;
  const tokens = told.reduce((sum, entry) => sum + estimateTokens(entry.text), 0);

  return (
    <details className="story-memory">
      <summary className="story-memory__summary">
        <FormattedMessage id="game.memory.heading" />
      </summary>
      <p className="story-memory__intro">
        <FormattedMessage
          id="game.memory.intro"
          values={{ tokens: tokens + estimateTokens(note) }}
        />
      </p>
      {firstTold > 0 && (
        <p className="story-memory__dropped">
          <FormattedMessage id="game.memory.leftOut" values={{ count: firstTold }} />
        </p>
      )}
      <ol className="story-memory__entries" start={firstTold + 1}>
        {told.map((entry, position) => {
          const index = firstTold + position;
          return (
            <li key={index} className="story-memory__entry">
              {correcting === index ? (
                <TextEditor
                  labelId="game.memory.correctLabel"
                  text={summaries[index] ?? ''}
                  maxLength={MEMORY_ENTRY_MAX_CHARS}
                  rows={3}
                  onSave={(text) => dispatch(gameActions.memoryCorrected({ index, text }))}
                  onClose={() => setCorrecting(null)}
                />
              ) : (
                <>
                  <p className="story-memory__text">
                    {entry.text}
                    {entry.shortened && (
                      <span className="story-memory__tag">
                        <FormattedMessage id="game.memory.shortened" />
                      </span>
                    )}
                  </p>
                  <button
                    type="button"
                    className="button story-memory__correct"
                    onClick={() => setCorrecting(index)}
                  >
                    <FormattedMessage id="game.memory.correct" values={{ number: index + 1 }} />
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ol>
      <PinnedNote
        key={note}
        note={note}
        onPin={(text) => dispatch(gameActions.storyNotePinned(text))}
      />
    </details>
  );
}

/** The pinned note: at most STORY_NOTE_MAX_CHARS, told to the model every turn. */
function PinnedNote({ note, onPin }: { note: string; onPin: (text: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(note);
  const changed = draft.trim() !== note;

  function pin(event: FormEvent) {
    event.preventDefault();
    if (changed) onPin(draft);
  }

  return (
    <form className="pinned-note" onSubmit={pin}>
      <label htmlFor={id} className="text-editor__label">
        <FormattedMessage id="game.memory.noteLabel" />
      </label>
      <textarea
        id={id}
        value={draft}
        rows={3}
        maxLength={STORY_NOTE_MAX_CHARS}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setDraft(event.target.value)}
      />
      <p id={`${id}-hint`} className="text-editor__hint">
        <FormattedMessage
          id="game.memory.noteHint"
          values={{ count: draft.length, max: STORY_NOTE_MAX_CHARS }}
        />
      </p>
      <div className="turn-tools__row">
        <button type="submit" className="button" disabled={!changed}>
          <FormattedMessage
            id={draft.trim() === '' && note !== '' ? 'game.memory.unpin' : 'game.memory.pin'}
          />
        </button>
        {note !== '' && !changed && (
          <span className="pinned-note__status" role="status">
            <FormattedMessage id="game.memory.pinned" />
          </span>
        )}
      </div>
    </form>
  );
}

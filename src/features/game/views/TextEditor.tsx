import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { FormattedMessage } from 'react-intl';
import './storyHand.css';

interface TextEditorProps {
  labelId: string;
  /** What the label's message names (an entry's name, say). */
  labelValues?: Record<string, string>;
  text: string;
  /** The fewest characters the text may have (1 when absent). */
  minLength?: number;
  maxLength: number;
  rows: number;
  onSave: (text: string) => void;
  onClose: () => void;
}

/**
 * A text the player rewrites in place: Save (or Ctrl+Enter) keeps it, Cancel (or Escape) leaves
 * it as it was. A text too short or too long is not saved: the editor says why and stays open.
 */
export function TextEditor({
  labelId,
  labelValues,
  text,
  minLength = 1,
  maxLength,
  rows,
  onSave,
  onClose,
}: TextEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState(text);
  const [problem, setProblem] = useState<'tooShort' | 'tooLong' | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);

  function save(event?: FormEvent) {
    event?.preventDefault();
    const length = draft.trim().length;
    if (length < minLength || length > maxLength) {
      setProblem(length < minLength ? 'tooShort' : 'tooLong');
      field.current?.focus();
      return;
    }
    if (draft.trim() !== text) onSave(draft);
    onClose();
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      save(event);
    }
  }

  return (
    <form className="text-editor" onSubmit={save}>
      <label htmlFor={id} className="text-editor__label">
        <FormattedMessage id={labelId} values={labelValues} />
      </label>
      <textarea
        id={id}
        ref={field}
        value={draft}
        rows={rows}
        maxLength={maxLength}
        aria-invalid={problem !== null}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setDraft(event.target.value);
          setProblem(null);
        }}
        onKeyDown={onKeyDown}
      />
      <p id={`${id}-hint`} className="text-editor__hint">
        <FormattedMessage
          id="game.hand.editHint"
          values={{ count: draft.length, max: maxLength }}
        />
      </p>
      {problem && (
        <p className="text-editor__problem" role="alert">
          <FormattedMessage
            id={problem === 'tooShort' ? 'game.hand.textTooShort' : 'game.hand.textTooLong'}
            values={{ min: minLength, max: maxLength }}
          />
        </p>
      )}
      <div className="turn-tools__row">
        <button type="submit" className="button primary">
          <FormattedMessage id="game.hand.save" />
        </button>
        <button type="button" className="button" onClick={onClose}>
          <FormattedMessage id="game.hand.cancel" />
        </button>
      </div>
    </form>
  );
}

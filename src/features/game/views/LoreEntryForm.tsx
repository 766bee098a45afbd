import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { FormattedMessage } from 'react-intl';
import {
  LORE_ALWAYS_MAX,
  LORE_KEYWORDS_MAX,
  LORE_KEYWORD_MAX_CHARS,
  LORE_NAME_MAX_CHARS,
  LORE_TEXT_MAX_CHARS,
} from '../../../engine/lorebook';
import type { LoreDraft } from '../lorebook/lorebookReducers';
import { loreDraftOf, type LoreForm, type LoreFormProblem } from './loreForm';

interface LoreEntryFormProps {
  form: LoreForm;
  /** The entry's name before this change, for the form's title (none for a new entry). */
  editing: string | null;
  /** Entries marked always, this one left out. */
  alwaysTaken: number;
  onChange: (form: LoreForm) => void;
  onSave: (draft: LoreDraft) => void;
  onCancel: () => void;
}

/** The comma-separated line holds at most this many characters: every keyword, at its longest. */
const KEYWORDS_LINE_MAX_CHARS = LORE_KEYWORDS_MAX * (LORE_KEYWORD_MAX_CHARS + 2);

/**
 * One entry written or changed: its name, its keywords, its text (with a live count against
 * LORE_TEXT_MAX_CHARS) and whether it is always told, with the limit said beside it. Save (or
 * Ctrl+Enter) keeps it, Cancel (or Escape) leaves it; a form without a name or a text says what
 * it misses and stays open.
 */
export function LoreEntryForm({
  form,
  editing,
  alwaysTaken,
  onChange,
  onSave,
  onCancel,
}: LoreEntryFormProps) {
  const id = useId();
  const [problem, setProblem] = useState<LoreFormProblem | null>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const textField = useRef<HTMLTextAreaElement>(null);
  useEffect(() => nameField.current?.focus(), []);
  const change = (fields: Partial<LoreForm>) => {
    onChange({ ...form, ...fields });
    setProblem(null);
  };
  // An entry already marked keeps its place; a new mark needs a free one.
  const alwaysFull = !form.always && alwaysTaken >= LORE_ALWAYS_MAX;

  function save(event?: FormEvent) {
    event?.preventDefault();
    const draft = loreDraftOf(form);
    if (typeof draft === 'string') {
      setProblem(draft);
      (draft === 'needsName' ? nameField : textField).current?.focus();
      return;
    }
    onSave(draft);
  }
  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      save(event);
    }
  }

  return (
    <form
      className="lore-form"
      onSubmit={save}
      onKeyDown={onKeyDown}
      aria-labelledby={`${id}-title`}
    >
      <p id={`${id}-title`} className="lore-form__title">
        {editing === null ? (
          <FormattedMessage id="game.lore.newEntry" />
        ) : (
          <FormattedMessage id="game.lore.editing" values={{ name: editing }} />
        )}
      </p>
      <label htmlFor={`${id}-name`}>
        <FormattedMessage id="game.lore.name" />
      </label>
      <input
        id={`${id}-name`}
        ref={nameField}
        type="text"
        value={form.name}
        maxLength={LORE_NAME_MAX_CHARS}
        autoComplete="off"
        aria-invalid={problem === 'needsName'}
        onChange={(event) => change({ name: event.target.value })}
      />
      <label htmlFor={`${id}-keywords`}>
        <FormattedMessage id="game.lore.keywords" />
      </label>
      <input
        id={`${id}-keywords`}
        type="text"
        value={form.keywords}
        maxLength={KEYWORDS_LINE_MAX_CHARS}
        autoComplete="off"
        aria-describedby={`${id}-keywords-hint`}
        onChange={(event) => change({ keywords: event.target.value })}
      />
      <p id={`${id}-keywords-hint`} className="lore-form__hint">
        <FormattedMessage id="game.lore.keywordsHint" />
      </p>
      <label htmlFor={`${id}-text`}>
        <FormattedMessage id="game.lore.text" />
      </label>
      <textarea
        id={`${id}-text`}
        ref={textField}
        value={form.text}
        rows={5}
        maxLength={LORE_TEXT_MAX_CHARS}
        aria-invalid={problem === 'needsText'}
        aria-describedby={`${id}-text-hint`}
        onChange={(event) => change({ text: event.target.value })}
      />
      <p id={`${id}-text-hint`} className="lore-form__hint" aria-live="polite">
        <FormattedMessage
          id="game.lore.textHint"
          values={{ count: form.text.length, max: LORE_TEXT_MAX_CHARS }}
        />
      </p>
      <label className="lore-form__always">
        <input
          type="checkbox"
          checked={form.always}
          disabled={alwaysFull}
          aria-describedby={`${id}-always-hint`}
          onChange={(event) => change({ always: event.target.checked })}
        />
        <FormattedMessage id="game.lore.alwaysLabel" />
      </label>
      <p id={`${id}-always-hint`} className="lore-form__hint">
        <FormattedMessage
          id={alwaysFull ? 'game.lore.alwaysFull' : 'game.lore.alwaysHint'}
          values={{ max: LORE_ALWAYS_MAX, count: alwaysTaken + (form.always ? 1 : 0) }}
        />
      </p>
      {problem && (
        <p className="lore-form__problem" role="alert">
          <FormattedMessage
            id={problem === 'needsName' ? 'game.lore.needsName' : 'game.lore.needsText'}
          />
        </p>
      )}
      <div className="turn-tools__row">
        <button type="submit" className="button primary">
          <FormattedMessage id="game.lore.save" />
        </button>
        <button type="button" className="button" onClick={onCancel}>
          <FormattedMessage id="game.lore.cancel" />
        </button>
      </div>
    </form>
  );
}

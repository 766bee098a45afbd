import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { shallowEqual } from 'react-redux';
import { LOREBOOK_MAX_ENTRIES, type LoreEntry } from '../../../engine/lorebook';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import type { Phase } from '../gameModel';
import { gameActions, type GameState } from '../gameSlice';
import { LOREBOOK_PHASES, type LoreDraft } from '../lorebook/lorebookReducers';
import { LoreEntryForm } from './LoreEntryForm';
import { LoreGenreKeeping } from './LoreGenreKeeping';
import { loreFormOf, newLoreForm, type LoreForm } from './loreForm';
import './lorebook.css';

const selectLorebookPanel = ({ game }: { game: GameState }) => ({
  lorebook: game.story.lorebook,
  genre: game.story.chosenGenre,
  editable: (LOREBOOK_PHASES as readonly Phase[]).includes(game.turn.phase),
});

export interface LorebookPanelProps {
  /** The entry being written (kept by the closed panel's shell, Lorebook.tsx), or null. */
  form: LoreForm | null;
  onForm: (form: LoreForm | null) => void;
}

/** Where focus goes after the panel changes: an entry's Edit button, Undo, or Add. */
type FocusTarget = { edit: string } | 'undo' | 'add';

/**
 * The open lorebook: its entries as the player wrote them (shown as text), each to edit or
 * remove (with Undo), a new one to add, and the lorebook kept for the story's genre. Entries
 * change only when the game hears it (lorebook/lorebookReducers.ts): while a paragraph is
 * written, or once the story has ended, the panel only shows them.
 */
export function LorebookPanel({ form, onForm }: LorebookPanelProps) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const { lorebook, genre, editable } = useAppSelector(selectLorebookPanel, shallowEqual);
  const [removed, setRemoved] = useState<{ entry: LoreEntry; index: number } | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const focusNext = useRef<FocusTarget | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    focusNext.current = null;
    const buttons = Array.from(panel.current?.querySelectorAll<HTMLElement>('button') ?? []);
    const found = buttons.find((button) =>
      typeof target === 'object' ? button.dataset.edit === target.edit : target in button.dataset,
    );
    (found ?? buttons.find((button) => 'add' in button.dataset))?.focus();
  });

  // A form for an entry that is no longer there (removed meanwhile) is no form.
  const stale = form !== null && form.id !== null && !lorebook.some(({ id }) => id === form.id);
  const editing = stale ? null : form;
  const alwaysTaken = lorebook.filter((entry) => entry.always && entry.id !== editing?.id).length;

  function close(focus: FocusTarget) {
    onForm(null);
    focusNext.current = focus;
  }
  function save(draft: LoreDraft) {
    if (editing?.id) {
      dispatch(gameActions.loreEntryChanged({ ...draft, id: editing.id }));
      close({ edit: editing.id });
    } else {
      const { payload } = dispatch(gameActions.loreEntryAdded(draft));
      close({ edit: payload.id });
    }
    setRemoved(null);
  }
  function remove(entry: LoreEntry, index: number) {
    dispatch(gameActions.loreEntryRemoved({ id: entry.id }));
    if (editing?.id === entry.id) onForm(null);
    setRemoved({ entry, index });
    focusNext.current = 'undo';
  }
  function undo() {
    if (!removed) return;
    dispatch(gameActions.loreEntryRestored(removed));
    setRemoved(null);
    focusNext.current = { edit: removed.entry.id };
  }

  const entryForm = (entry: LoreEntry | null) =>
    editing && (
      <LoreEntryForm
        form={editing}
        editing={entry?.name ?? null}
        alwaysTaken={alwaysTaken}
        onChange={onForm}
        onSave={save}
        onCancel={() => close(entry ? { edit: entry.id } : 'add')}
      />
    );

  return (
    <div className="lorebook-panel" ref={panel}>
      <p className="lorebook__intro">
        <FormattedMessage id="game.lore.intro" />
      </p>
      {!editable && (
        <p className="lorebook__note">
          <FormattedMessage id="game.lore.readOnly" />
        </p>
      )}
      {lorebook.length === 0 && !editing && (
        <p className="lorebook__note">
          <FormattedMessage id="game.lore.empty" />
        </p>
      )}
      <ul className="lorebook__entries">
        {lorebook.map((entry, index) => (
          <li key={entry.id} className="lorebook__entry">
            {editable && editing?.id === entry.id ? (
              entryForm(entry)
            ) : (
              <LoreEntryShown entry={entry}>
                {editable && (
                  <div className="turn-tools__row">
                    <button
                      type="button"
                      className="button"
                      data-edit={entry.id}
                      aria-label={intl.formatMessage(
                        { id: 'game.lore.editNamed' },
                        { name: entry.name },
                      )}
                      onClick={() => onForm(loreFormOf(entry))}
                    >
                      <FormattedMessage id="game.lore.edit" />
                    </button>
                    <button
                      type="button"
                      className="button"
                      aria-label={intl.formatMessage(
                        { id: 'game.lore.removeNamed' },
                        { name: entry.name },
                      )}
                      onClick={() => remove(entry, index)}
                    >
                      <FormattedMessage id="game.lore.remove" />
                    </button>
                  </div>
                )}
              </LoreEntryShown>
            )}
          </li>
        ))}
      </ul>
      <div role="status" className="lorebook__removed">
        {removed && editable && (
          <>
            <FormattedMessage id="game.lore.removed" values={{ name: removed.entry.name }} />{' '}
            <button type="button" className="button" data-undo onClick={undo}>
              <FormattedMessage id="game.lore.undo" />
            </button>
          </>
        )}
      </div>
      {editable &&
        (editing && editing.id === null ? (
          entryForm(null)
        ) : lorebook.length < LOREBOOK_MAX_ENTRIES ? (
          <button type="button" className="button" data-add onClick={() => onForm(newLoreForm)}>
            <FormattedMessage id="game.lore.add" />
          </button>
        ) : (
          <p className="lorebook__note">
            <FormattedMessage id="game.lore.full" values={{ max: LOREBOOK_MAX_ENTRIES }} />
          </p>
        ))}
      <LoreGenreKeeping genre={genre} lorebook={lorebook} />
      <p className="lorebook__note lorebook__private">
        <FormattedMessage id="game.lore.private" />
      </p>
    </div>
  );
}

/** An entry as the player wrote it: its name, its keywords and its text, as text. */
function LoreEntryShown({ entry, children }: { entry: LoreEntry; children: ReactNode }) {
  return (
    <>
      <p className="lorebook__name">
        {entry.name}
        {entry.always && (
          <span className="lorebook__tag">
            <FormattedMessage id="game.lore.always" />
          </span>
        )}
      </p>
      <p className="lorebook__keywords">
        {entry.keywords.length > 0 ? (
          <FormattedMessage
            id="game.lore.keywordsShown"
            values={{ keywords: entry.keywords.join(', ') }}
          />
        ) : (
          <FormattedMessage id="game.lore.noKeywords" />
        )}
      </p>
      <p className="lorebook__text">{entry.text}</p>
      {children}
    </>
  );
}

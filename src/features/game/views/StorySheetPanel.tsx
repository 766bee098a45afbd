import { useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  SHEET_KINDS,
  SHEET_NAME_MAX_CHARS,
  SHEET_NOTE_MAX_CHARS,
  SHEET_NOTE_MAX_WORDS,
  isDead,
  type SheetEntry,
  type SheetKind,
} from '../../../engine/storySheet';
import { sheetOrder } from '../../../engine/sheetTelling';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { estimateTokens, sheetTold } from '../../llm';
import { gameActions, type GameState } from '../gameSlice';
import { TextEditor } from './TextEditor';
import './storySheet.css';

const selectSheet = (state: { game: GameState }) => state.game.story.storySheet.entries;
const selectLog = (state: { game: GameState }) => state.game.story.storyLog;

type Group = SheetKind | 'closed';
const GROUPS: readonly Group[] = ['person', 'item', 'place', 'thread', 'condition', 'closed'];
const groupOf = (entry: SheetEntry): Group => (entry.closed ? 'closed' : entry.kind);
const keyOf = (entry: Pick<SheetEntry, 'kind' | 'name'>) => `${entry.kind}:${entry.name}`;

/**
 * The open "Story sheet": every entry, grouped by kind as the prompt tells them, with what the
 * next prompt leaves out marked (the sheet's own budget, prompts/types.ts sheetTold). The player
 * corrects a note, removes an entry (with Undo) or adds one; the next prompt tells their version.
 * Names and notes are the model's or the player's words, shown as text.
 */
export function StorySheetPanel() {
  const dispatch = useAppDispatch();
  const entries = useAppSelector(selectSheet);
  const log = useAppSelector(selectLog);
  const told = useMemo(() => {
    const paragraphs = log.flatMap((entry) => (entry.kind === 'paragraph' ? [entry.text] : []));
    return sheetTold(entries, paragraphs);
  }, [entries, log]);
  const tokens = told.reduce(
    (sum, entry) => sum + estimateTokens(`${entry.name}: ${entry.note}`),
    0,
  );
  const [correcting, setCorrecting] = useState<string | null>(null);
  const [removed, setRemoved] = useState<SheetEntry | null>(null);
  const ordered = sheetOrder(entries);

  return (
    <>
      <p className="story-memory__intro">
        {entries.length === 0 ? (
          <FormattedMessage id="sheet.empty" />
        ) : (
          <FormattedMessage id="sheet.intro" values={{ tokens }} />
        )}
      </p>
      {told.length < entries.length && (
        <p className="story-memory__dropped">
          <FormattedMessage id="sheet.leftOut" values={{ count: entries.length - told.length }} />
        </p>
      )}
      {GROUPS.map((group) => {
        const inGroup = ordered.filter((entry) => groupOf(entry) === group);
        if (inGroup.length === 0) return null;
        return (
          <section key={group} className="story-sheet__group">
            <h3 className="story-sheet__kind">
              <FormattedMessage id={`sheet.kind.${group}`} />
            </h3>
            <ul className="story-sheet__entries">
              {inGroup.map((entry) => (
                <li key={keyOf(entry)} className="story-sheet__entry">
                  {correcting === keyOf(entry) ? (
                    <TextEditor
                      labelId="sheet.correctLabel"
                      labelValues={{ name: entry.name }}
                      text={entry.note}
                      maxLength={SHEET_NOTE_MAX_CHARS}
                      rows={2}
                      onSave={(note) => dispatch(gameActions.sheetEntryWritten({ ...entry, note }))}
                      onClose={() => setCorrecting(null)}
                    />
                  ) : (
                    <SheetLine
                      entry={entry}
                      told={told.includes(entry)}
                      onCorrect={() => setCorrecting(keyOf(entry))}
                      onRemove={() => {
                        setRemoved(entry);
                        dispatch(gameActions.sheetEntryRemoved(entry));
                      }}
                    />
                  )}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      {removed && (
        <p className="story-sheet__removed" role="status">
          <FormattedMessage id="sheet.removed" values={{ name: removed.name }} />{' '}
          <button
            type="button"
            className="button story-sheet__undo"
            onClick={() => {
              dispatch(gameActions.sheetEntryWritten(removed));
              setRemoved(null);
            }}
          >
            <FormattedMessage id="sheet.undo" />
          </button>
        </p>
      )}
      <AddEntry
        onAdd={(entry) => {
          setRemoved(null);
          dispatch(gameActions.sheetEntryWritten(entry));
        }}
      />
    </>
  );
}

function SheetLine({
  entry,
  told,
  onCorrect,
  onRemove,
}: {
  entry: SheetEntry;
  told: boolean;
  onCorrect: () => void;
  onRemove: () => void;
}) {
  const intl = useIntl();
  const tag = (id: string) => (
    <span className="story-sheet__tag">
      <FormattedMessage id={id} />
    </span>
  );
  return (
    <>
      <p className="story-sheet__text">
        <strong className="story-sheet__name">{entry.name}</strong>
        {isDead(entry) && tag('sheet.dead')}
        {entry.playerIn !== null && tag('sheet.yours')}
        {!told && tag('sheet.notTold')}
        {entry.note !== '' && <span className="story-sheet__note">{entry.note}</span>}
      </p>
      <div className="story-sheet__actions">
        <button
          type="button"
          className="button story-sheet__action"
          aria-label={intl.formatMessage({ id: 'sheet.correct' }, { name: entry.name })}
          onClick={onCorrect}
        >
          <FormattedMessage id="sheet.correctShort" />
        </button>
        <button
          type="button"
          className="button story-sheet__action"
          aria-label={intl.formatMessage({ id: 'sheet.remove' }, { name: entry.name })}
          onClick={onRemove}
        >
          <FormattedMessage id="sheet.removeShort" />
        </button>
      </div>
    </>
  );
}

/** The player's own entry: a kind, a name and a note of about 20 words. */
function AddEntry({
  onAdd,
}: {
  onAdd: (entry: Pick<SheetEntry, 'kind' | 'name' | 'note'>) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const [kind, setKind] = useState<SheetKind>('person');
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);

  function add(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setMissing(true);
      return;
    }
    onAdd({ kind, name, note });
    setName('');
    setNote('');
    setMissing(false);
  }

  return (
    <form className="story-sheet__add" onSubmit={add} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="story-sheet__kind">
        <FormattedMessage id="sheet.add.heading" />
      </h3>
      <label htmlFor={`${id}-kind`}>
        <FormattedMessage id="sheet.add.kind" />
      </label>
      <select
        id={`${id}-kind`}
        value={kind}
        onChange={(event) => setKind(event.target.value as SheetKind)}
      >
        {SHEET_KINDS.map((option) => (
          <option key={option} value={option}>
            {intl.formatMessage({ id: `sheet.option.${option}` })}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-name`}>
        <FormattedMessage id="sheet.add.name" />
      </label>
      <input
        id={`${id}-name`}
        type="text"
        value={name}
        maxLength={SHEET_NAME_MAX_CHARS}
        autoComplete="off"
        aria-invalid={missing}
        aria-describedby={missing ? `${id}-missing` : undefined}
        onChange={(event) => {
          setName(event.target.value);
          setMissing(false);
        }}
      />
      {missing && (
        <p id={`${id}-missing`} className="story-sheet__problem" role="alert">
          <FormattedMessage id="sheet.add.nameMissing" />
        </p>
      )}
      <label htmlFor={`${id}-note`}>
        <FormattedMessage id="sheet.add.note" />
      </label>
      <input
        id={`${id}-note`}
        type="text"
        value={note}
        maxLength={SHEET_NOTE_MAX_CHARS}
        autoComplete="off"
        aria-describedby={`${id}-hint`}
        onChange={(event) => setNote(event.target.value)}
      />
      <p id={`${id}-hint`} className="story-sheet__hint">
        <FormattedMessage id="sheet.add.noteHint" values={{ words: SHEET_NOTE_MAX_WORDS }} />
      </p>
      <button type="submit" className="button">
        <FormattedMessage id="sheet.add.submit" />
      </button>
    </form>
  );
}

import { useEffect, useId, useMemo, useReducer, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage } from 'react-intl';
import { shallowEqual } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import {
  estimateTokens,
  loadPrompts,
  promptsFor,
  promptsLoaded,
  type ContextEntry,
  type Prompts,
} from '../../llm';
import type { Language } from '../../../engine/types';
import { selectLanguage } from '../../settings';
import { MEMORY_ENTRY_MAX_CHARS, STORY_NOTE_MAX_CHARS } from '../gameModel';
import { gameActions, type GameState } from '../gameSlice';
import { turnInput, turnUse } from '../turnPrompt';
import { focusWasLost } from './focus';
import { TextEditor } from './TextEditor';
import { TurnCost } from './TurnCost';
import './storyMemory.css';

/** What the next turn's prompt is built from: a streamed word changes none of it. */
const selectNextTurn = (state: { game: GameState }) => {
  const { story: game } = state.game;
  return {
    chosenCharacter: game.chosenCharacter,
    characterGender: game.characterGender,
    characterBio: game.characterBio,
    characterTraits: game.characterTraits,
    chosenGenre: game.chosenGenre,
    storySummary: game.storySummary,
    storyNote: game.storyNote,
    storySheet: game.storySheet,
    lorebook: game.lorebook,
    storyLog: game.storyLog,
    previousParagraph: game.previousParagraph,
    options: game.options,
    lastChoice: game.lastChoice,
    latest: game.storyLog.at(-1),
    turnCount: game.turnCount,
    stats: game.playerStats,
  };
};
type NextTurn = ReturnType<typeof selectNextTurn>;

/**
 * The entries the next turn's prompt tells the model, from the same builder that writes it:
 * for a turn waiting to be written, its own choice; otherwise the first option offered (the
 * options differ by a few tokens at most).
 */
function contextOfNextTurn(next: NextTurn, prompts: Prompts) {
  const waiting = next.lastChoice !== null && next.latest?.kind === 'choice';
  const choice =
    waiting && next.lastChoice
      ? next.lastChoice
      : {
          turn: next.turnCount + 1,
          option: next.options[0] ?? ANY_ACTION,
          outcome: 'partial' as const,
          scenarioType: 'standard' as const,
        };
  const input = turnInput(next, next.stats, choice);
  const context: ContextEntry[] = prompts.contextOfTurn(turnUse(choice.turn), input);
  // The lorebook's entries the prompt carries (with the first option's words, for a turn not
  // chosen yet: the player's own choice may bring others).
  return { context, lore: input.lore ?? [] };
}

const ANY_ACTION = { text: '', risk: 'medium', alignment: 'neutral', traitAlignment: '' } as const;

/**
 * The prompts of `language`, or null while they are fetched: Korean's come with the first
 * Korean request, and a game loaded from its save (or a language switched with the panel
 * open) has made none yet.
 */
function useLoadedPrompts(language: Language): Prompts | null {
  const [, arrived] = useReducer((count: number) => count + 1, 0);
  const loaded = promptsLoaded(language);
  useEffect(() => {
    if (loaded) return;
    let current = true;
    loadPrompts(language).then(
      () => current && arrived(),
      (error: unknown) => console.error(`Could not load the '${language}' prompts`, error),
    );
    return () => {
      current = false;
    };
  }, [language, loaded]);
  return loaded ? promptsFor(language) : null;
}

/**
 * The open "Story so far" panel: what the model is told of the past, in order,
 * exactly as the next turn's prompt tells it: the newest summaries whole, older ones shortened to
 * their gist, the oldest left out once the prompt's token budget is spent (the note and the
 * latest paragraph count in it). The player may correct any entry, and pin a note that goes into
 * every story prompt.
 */
export function StoryMemoryPanel(props: NoteDraftProps) {
  const prompts = useLoadedPrompts(useAppSelector(selectLanguage));
  if (!prompts) {
    return (
      <p className="part-loading" role="status">
        <FormattedMessage id="app.loadingPage" />
      </p>
    );
  }
  return <StoryMemoryEntries {...props} prompts={prompts} />;
}

function StoryMemoryEntries({
  noteDraft,
  onNoteDraft,
  prompts,
}: NoteDraftProps & { prompts: Prompts }) {
  const dispatch = useAppDispatch();
  const next = useAppSelector(selectNextTurn, shallowEqual);
  const summaries = next.storySummary;
  const note = next.storyNote;
  const { context: told, lore } = useMemo(() => contextOfNextTurn(next, prompts), [next, prompts]);
  // An editor stays open only for the memory it opened on: a rewrite or a new turn closes it.
  const [opened, setOpened] = useState({ index: -1, count: 0 });
  const correcting = opened.count === summaries.length && opened.index >= 0 ? opened.index : null;
  const setCorrecting = (index: number | null) =>
    setOpened({ index: index ?? -1, count: summaries.length });
  // Keyboard players come back to the entry's Correct button.
  const list = useRef<HTMLOListElement>(null);
  const lastCorrected = useRef<number | null>(null);
  useEffect(() => {
    if (correcting !== null || lastCorrected.current === null || !focusWasLost()) return;
    list.current
      ?.querySelector<HTMLButtonElement>(`[data-entry="${lastCorrected.current}"]`)
      ?.focus();
    lastCorrected.current = null;
  });
  // The context holds the newest summaries: entry i is summary `firstTold + i`.
  const firstTold = summaries.length - told.length;
  const tokens = told.reduce((sum, entry) => sum + estimateTokens(entry.text), 0);

  return (
    <>
      <p className="story-memory__intro">
        <FormattedMessage id="memory.intro" values={{ tokens: tokens + estimateTokens(note) }} />
      </p>
      {firstTold > 0 && (
        <p className="story-memory__dropped">
          <FormattedMessage id="memory.leftOut" values={{ count: firstTold }} />
        </p>
      )}
      <ol className="story-memory__entries" start={firstTold + 1} ref={list}>
        {told.map((entry, position) => {
          const index = firstTold + position;
          return (
            <li key={index} className="story-memory__entry">
              {correcting === index ? (
                <TextEditor
                  labelId="memory.correctLabel"
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
                        <FormattedMessage id="memory.shortened" />
                      </span>
                    )}
                  </p>
                  <button
                    type="button"
                    className="button story-memory__correct"
                    data-entry={index}
                    onClick={() => {
                      lastCorrected.current = index;
                      setCorrecting(index);
                    }}
                  >
                    <FormattedMessage id="memory.correct" values={{ number: index + 1 }} />
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ol>
      {next.lorebook.length > 0 && (
        <p className="story-memory__lore">
          {lore.length === 0 ? (
            <FormattedMessage id="memory.loreNone" />
          ) : (
            <FormattedMessage
              id="memory.loreTold"
              values={{ names: lore.map((entry) => entry.name).join(', ') }}
            />
          )}
        </p>
      )}
      <PinnedNote
        note={note}
        noteDraft={noteDraft}
        onNoteDraft={onNoteDraft}
        onPin={(text) => dispatch(gameActions.storyNotePinned(text))}
      />
      <TurnCost />
    </>
  );
}

/**
 * A pinned note being written, kept by the panel's closed shell (null: none, the note as pinned
 * is shown), so closing the panel does not lose it.
 */
interface NoteDraftProps {
  noteDraft: string | null;
  onNoteDraft: (draft: string | null) => void;
}

/** The pinned note: at most STORY_NOTE_MAX_CHARS, told to the model every turn. */
function PinnedNote({
  note,
  noteDraft,
  onNoteDraft,
  onPin,
}: NoteDraftProps & { note: string; onPin: (text: string) => void }) {
  const id = useId();
  const draft = noteDraft ?? note;
  const changed = draft.trim() !== note;

  function pin(event: FormEvent) {
    event.preventDefault();
    if (changed) onPin(draft);
    onNoteDraft(null);
  }

  return (
    <form className="text-editor pinned-note" onSubmit={pin}>
      <label htmlFor={id} className="text-editor__label">
        <FormattedMessage id="memory.noteLabel" />
      </label>
      <textarea
        id={id}
        value={draft}
        rows={3}
        maxLength={STORY_NOTE_MAX_CHARS}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onNoteDraft(event.target.value)}
      />
      <p id={`${id}-hint`} className="text-editor__hint">
        <FormattedMessage
          id="memory.noteHint"
          values={{ count: draft.length, max: STORY_NOTE_MAX_CHARS }}
        />
      </p>
      <div className="turn-tools__row">
        <button type="submit" className="button" disabled={!changed}>
          <FormattedMessage
            id={draft.trim() === '' && note !== '' ? 'memory.unpin' : 'memory.pin'}
          />
        </button>
        {note !== '' && !changed && (
          <span className="pinned-note__status" role="status">
            <FormattedMessage id="memory.pinned" />
          </span>
        )}
      </div>
    </form>
  );
}

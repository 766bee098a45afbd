import { useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import type { LoreEntry } from '../../../engine/lorebook';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { genreLorebookForgotten, genreLorebookSaved, selectGenreLorebooks } from '../../settings';
import { focusWasLost } from './focus';

const sameEntry = (a: LoreEntry, b: LoreEntry) =>
  a.id === b.id &&
  a.name === b.name &&
  a.text === b.text &&
  a.always === b.always &&
  a.keywords.join('\n') === b.keywords.join('\n');

const sameLorebook = (a: readonly LoreEntry[], b: readonly LoreEntry[]) =>
  a.length === b.length && a.every((entry, index) => sameEntry(entry, b[index]!));

/**
 * The lorebook kept for the story's genre (the settings' genreLorebooks): new stories of the
 * genre start with a copy of it. The player keeps this story's lorebook for the genre, keeps it
 * instead of an earlier one, or stops keeping one; it stays in this browser only.
 */
export function LoreGenreKeeping({ genre, lorebook }: { genre: string; lorebook: LoreEntry[] }) {
  const dispatch = useAppDispatch();
  const kept = useAppSelector(selectGenreLorebooks)[genre.trim()];
  const state = !kept ? 'none' : sameLorebook(kept, lorebook) ? 'this' : 'other';
  // The button pressed is gone once the state changes: focus goes to the way back.
  const box = useRef<HTMLDivElement>(null);
  const changed = useRef(false);
  useEffect(() => {
    if (!changed.current || !focusWasLost()) return;
    changed.current = false;
    box.current?.querySelector('button')?.focus();
  }, [state]);
  if (genre.trim() === '' || (state === 'none' && lorebook.length === 0)) return null;

  const keep = () => {
    changed.current = true;
    dispatch(genreLorebookSaved({ genre, lorebook }));
  };
  const forget = () => {
    changed.current = true;
    dispatch(genreLorebookForgotten(genre));
  };
  return (
    <div className="lorebook__genre" ref={box}>
      {state !== 'none' && (
        <p className="lorebook__kept" role="status">
          {state === 'this' ? (
            <FormattedMessage id="game.lore.kept" values={{ genre }} />
          ) : (
            <FormattedMessage id="game.lore.keptOther" values={{ genre, count: kept!.length }} />
          )}
        </p>
      )}
      <div className="turn-tools__row">
        {state === 'none' && (
          <button type="button" className="button" onClick={keep}>
            <FormattedMessage id="game.lore.keep" values={{ genre }} />
          </button>
        )}
        {state === 'other' && lorebook.length > 0 && (
          <button type="button" className="button" onClick={keep}>
            <FormattedMessage id="game.lore.keepInstead" />
          </button>
        )}
        {state !== 'none' && (
          <button type="button" className="button" onClick={forget}>
            <FormattedMessage id="game.lore.forget" />
          </button>
        )}
      </div>
      <p className="lorebook__note">
        <FormattedMessage id="game.lore.keptWhere" />
      </p>
    </div>
  );
}

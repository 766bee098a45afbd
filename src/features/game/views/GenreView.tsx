import { useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { selectLanguage } from '../../settings';
import { gameActions } from '../gameSlice';
import { useLanguageWords } from '../languageWords';
import './setup.css';

/** Long enough for any preset and a player's own idea; the prompt stays short. */
const GENRE_MAX_CHARS = 80;

/**
 * SPEC.md section 2, view 3: a genre of the player's own, or one of about 66 presets in the
 * interface language; a preset only fills the field, Submit Genre confirms it.
 */
export function GenreView() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const words = useLanguageWords(useAppSelector(selectLanguage));
  const [genre, setGenre] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const fieldId = useId();
  const presetsId = useId();
  const blank = genre.trim() === '';

  function submit(event: FormEvent) {
    event.preventDefault();
    // SPEC.md section 5: the custom genre must be non-blank.
    if (!blank) dispatch(gameActions.genreChosen(genre.trim()));
  }

  function pickPreset(preset: string) {
    setGenre(preset);
    // On a phone the field is a screen away from the lower chips: bring it back into view.
    form.current?.scrollIntoView?.({ block: 'nearest' });
  }

  return (
    <section className="panel setup-view genre-view" aria-labelledby={headingId}>
      <h1 id={headingId}>
        <FormattedMessage id="game.genre.heading" />
      </h1>
      <form ref={form} className="setup-form genre-view__form" onSubmit={submit}>
        <label htmlFor={fieldId}>
          <FormattedMessage id="game.genre.custom" />
        </label>
        <div className="setup-row">
          <input
            id={fieldId}
            type="text"
            value={genre}
            maxLength={GENRE_MAX_CHARS}
            autoComplete="off"
            placeholder={intl.formatMessage({ id: 'game.genre.placeholder' })}
            onChange={(event) => setGenre(event.target.value)}
          />
          <button type="submit" className="button primary" disabled={blank}>
            <FormattedMessage id="game.genre.submit" />
          </button>
        </div>
      </form>
      <h2 id={presetsId} className="setup-subheading">
        <FormattedMessage id="game.genre.presets" />
      </h2>
      <ul className="genre-chips" aria-labelledby={presetsId}>
        {(words?.genres ?? []).map((preset) => (
          <li key={preset}>
            <button
              type="button"
              className="genre-chip"
              aria-pressed={genre === preset}
              onClick={() => pickPreset(preset)}
            >
              {preset}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import type { GameState } from '../gameSlice';
import { randomName, type NamePool } from '../../../engine/names';
import { useLanguageWords } from '../languageWords';
import type { Language } from '../../../engine/types';
import { selectLanguage } from '../../settings';
import { gameActions } from '../gameSlice';
import { Lorebook } from './Lorebook';
import './setup.css';

const NAME_PART_MAX_CHARS = 40;
const HANGUL_ONLY = /^[\p{Script=Hangul}]+$/u;

const NO_NAMES: NamePool = { first: [], last: [] };
/**
 * The character's full name as the story will use it. A Korean name is written family name
 * first with no space (김 + 민준 → 김민준); a name not written in Hangul keeps the Western
 * order even in the Korean interface ('John' + 'Smith' → 'John Smith'), since 'SmithJohn'
 * would read as neither.
 */
export function joinCharacterName(first: string, last: string, language: Language): string {
  const firstName = first.trim();
  const lastName = last.trim();
  if (language === 'kr' && HANGUL_ONLY.test(firstName) && HANGUL_ONLY.test(lastName)) {
    return `${lastName}${firstName}`;
  }
  return `${firstName} ${lastName}`;
}

/**
 * A full name back in its two fields, when the player returns to the name after stopping the
 * opening: joining the parts again gives the same name (a Hangul name's family name is taken
 * as its first syllable, and joins back without a space).
 */
export function splitCharacterName(name: string): { first: string; last: string } {
  if (name === '') return { first: '', last: '' };
  if (HANGUL_ONLY.test(name) && name.length > 1) return { first: name.slice(1), last: name[0]! };
  const space = name.indexOf(' ');
  return space < 0
    ? { first: name, last: '' }
    : { first: name.slice(0, space), last: name.slice(space + 1) };
}

/** SPEC.md section 2, view 5: first and last name, typed or Random; Submit starts the story. */
export interface NameViewProps {
  /** Whether the story will be illustrated (issue 41): the pictures feature's choice. */
  illustrate?: ReactNode;
}

export function NameView({ illustrate }: NameViewProps = {}) {
  const dispatch = useAppDispatch();
  const language = useAppSelector(selectLanguage);
  const words = useLanguageWords(language);
  // The name given before a stopped opening comes back.
  const named = splitCharacterName(
    useAppSelector((state: { game: GameState }) => state.game.story.chosenCharacter),
  );
  const [firstName, setFirstName] = useState(named.first);
  const [lastName, setLastName] = useState(named.last);
  const [missing, setMissing] = useState(false);
  const id = useId();
  const complete = firstName.trim() !== '' && lastName.trim() !== '';

  function submit(event: FormEvent) {
    event.preventDefault();
    // SPEC.md section 5: both names are required (or Random fills them).
    if (!complete) {
      setMissing(true);
      return;
    }
    dispatch(gameActions.characterNamed(joinCharacterName(firstName, lastName, language)));
  }

  function fillRandomName() {
    // Until the language's lists are here, every part is invented.
    const name = randomName(words?.names ?? NO_NAMES, language, Math.random);
    setFirstName(name.firstName);
    setLastName(name.lastName);
    setMissing(false);
  }

  const nameField = (part: 'first' | 'last'): ReactNode => {
    const value = part === 'first' ? firstName : lastName;
    const setValue = part === 'first' ? setFirstName : setLastName;
    return (
      <div className="setup-field" key={part}>
        <label htmlFor={`${id}-${part}`}>
          <FormattedMessage id={part === 'first' ? 'game.name.first' : 'game.name.last'} />
        </label>
        <input
          id={`${id}-${part}`}
          type="text"
          value={value}
          maxLength={NAME_PART_MAX_CHARS}
          autoComplete="off"
          aria-invalid={missing && value.trim() === ''}
          aria-describedby={missing ? `${id}-missing` : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setMissing(false);
          }}
        />
      </div>
    );
  };

  return (
    <section className="panel setup-view name-view" aria-labelledby={`${id}-heading`}>
      <h1 id={`${id}-heading`}>
        <FormattedMessage id="game.name.heading" />
      </h1>
      <form className="setup-form" onSubmit={submit} noValidate>
        <div className="name-view__fields">
          {/* Korean forms ask for the family name first, the order the name is written in. */}
          {language === 'kr'
            ? [nameField('last'), nameField('first')]
            : [nameField('first'), nameField('last')]}
        </div>
        <p className="name-view__preview muted" aria-live="polite">
          {complete && (
            <FormattedMessage
              id="game.name.preview"
              values={{ name: joinCharacterName(firstName, lastName, language) }}
            />
          )}
        </p>
        {missing && (
          <p className="setup-error" role="alert" id={`${id}-missing`}>
            <FormattedMessage id="game.name.required" />
          </p>
        )}
        <div className="setup-actions">
          <button type="button" className="button" onClick={fillRandomName}>
            <span aria-hidden="true">⚄</span>
            <FormattedMessage id="game.name.random" />
          </button>
          <button type="submit" className="button primary">
            <FormattedMessage id="game.name.submit" />
          </button>
        </div>
        {illustrate}
      </form>
      {/* Set up the world before the first word: the opening is told the entries marked always. */}
      <Lorebook />
    </section>
  );
}

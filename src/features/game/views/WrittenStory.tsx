import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { toEnglishEndingType, type EndingStyle } from '../../../engine/score';
import type { Outcome } from '../../../engine/types';
import type { Recap } from '../gameModel';
import './writtenStory.css';

// The story as written, as the game's log and ending screen and a published story's page all
// show it: its lines, and the ending's emblem, name and highlights. Plain props, no store; story
// text is always React text, never HTML.

// ---------- The story's lines ----------

// Meaning is never colour alone (DESIGN.md, Look and feel): the badge carries a word, and an
// icon that is hidden from screen readers because the word says it already.
const OUTCOME_ICONS: Record<Outcome, string> = { success: '✓', partial: '◐', failure: '✕' };

/** SUCCESS / PARTIAL / FAILURE after a choice (in the game's log from the 2nd turn). */
function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  return (
    <span className={`outcome-badge outcome-badge--${outcome}`}>
      <span className="outcome-badge__icon" aria-hidden="true">
        {OUTCOME_ICONS[outcome]}
      </span>
      <FormattedMessage id={`game.outcome.${outcome}`} />
    </span>
  );
}

interface StoryParagraphProps {
  text: string;
  /** After the text: the game's edited mark and read-aloud button. */
  children?: ReactNode;
}

/** A paragraph of the model's. */
export function StoryParagraph({ text, children }: StoryParagraphProps) {
  return (
    <p className="story-paragraph">
      {text}
      {children}
    </p>
  );
}

interface StoryChoiceProps {
  text: string;
  outcome: Outcome | null;
  /** Who chose, for screen readers: 'You chose:' in the game, 'The player chose:' for a reader. */
  chooser: ReactNode;
  /** Between the choice and its outcome: the game's edited mark. */
  mark?: ReactNode;
}

/** What the player chose, marked, with its outcome once one was rolled. */
export function StoryChoice({ text, outcome, chooser, mark }: StoryChoiceProps) {
  return (
    <p className="story-choice">
      <span className="story-choice__marker" aria-hidden="true">
        ➤
      </span>
      <span className="visually-hidden">{chooser} </span>
      <span className="story-choice__text">{text}</span>
      {mark}
      {outcome !== null && <OutcomeBadge outcome={outcome} />}
    </p>
  );
}

// ---------- The ending ----------

/**
 * The class that gives an element an ending's mood: its accent colours (writtenStory.css), which
 * the emblem, the ending's name and the highlights inside it take.
 */
export function endingMoodClass(endingStyle: EndingStyle): string {
  return `ending-mood--${endingStyle}`;
}

/** Each ending's emblem, beside its colours in writtenStory.css. */
const EMBLEMS: Record<EndingStyle, string> = {
  heroic: '✦',
  pyrrhic: '⚔',
  antihero: '☾',
  tragic: '❦',
  bittersweet: '❀',
  other: '✧',
};

/** The ending's emblem, in its mood's colours; decoration, hidden from screen readers. */
export function EndingEmblem({ endingStyle }: { endingStyle: EndingStyle }) {
  return (
    <span className="ending-emblem" aria-hidden="true">
      {EMBLEMS[endingStyle]}
    </span>
  );
}

interface EndingTypeNameProps {
  endingType: string;
  /** The story was told in Korean: the ending keeps the Korean name the model gave it. */
  korean: boolean;
  /** Before the name: the ending screen's 'Ending:' for screen readers. */
  label?: ReactNode;
}

/** The ending's name, in English unless the story is Korean; nothing when it has none. */
export function EndingTypeName({ endingType, korean, label }: EndingTypeNameProps) {
  const name = korean ? endingType : toEnglishEndingType(endingType);
  if (name === '') return null;
  return (
    <p className="ending-type">
      {label}
      {name}
    </p>
  );
}

type Highlights = Pick<
  Recap,
  'bigMoment' | 'frequentActivity' | 'characterTraitHighlight' | 'themeExploration'
>;

const HIGHLIGHTS: ReadonlyArray<[string, keyof Highlights]> = [
  ['game.ending.bigMoment', 'bigMoment'],
  ['game.ending.frequentActivity', 'frequentActivity'],
  ['game.ending.characterTrait', 'characterTraitHighlight'],
  ['game.ending.themeSong', 'themeExploration'],
];

/** The recap's four highlights, each under its label; one the model left empty is left out. */
export function EndingHighlights({ recap }: { recap: Highlights }) {
  const shown = HIGHLIGHTS.filter(([, key]) => recap[key].trim() !== '');
  if (shown.length === 0) return null;
  return (
    <dl className="ending-highlights">
      {shown.map(([labelId, key]) => (
        <div key={key} className="ending-highlights__item">
          <dt>
            <FormattedMessage id={labelId} />
          </dt>
          <dd>{recap[key]}</dd>
        </div>
      ))}
    </dl>
  );
}

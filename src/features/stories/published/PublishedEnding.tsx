import { useId } from 'react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { endingStyle, toEnglishEndingType, type EndingStyle } from '../../../engine/score';
import type { Language } from '../../../engine/types';
import type { PublishedRecap } from './publishedStoryApi';

/** Each ending's emblem, as on the ending screen, beside its colours in published.css. */
const EMBLEMS: Record<EndingStyle, string> = {
  heroic: '✦',
  pyrrhic: '⚔',
  antihero: '☾',
  tragic: '❦',
  bittersweet: '❀',
  other: '✧',
};

const HIGHLIGHTS = [
  ['game.ending.bigMoment', 'bigMoment'],
  ['game.ending.frequentActivity', 'frequentActivity'],
  ['game.ending.characterTrait', 'characterTraitHighlight'],
  ['game.ending.themeSong', 'themeExploration'],
] as const;

interface PublishedEndingProps {
  endingType: string;
  recap: PublishedRecap | null;
  score: number | null;
  turnCount: number;
  language: Language;
}

/** How the story ended: its type, the recap's wrap-up and highlights, the score and turns. */
export function PublishedEnding({
  endingType,
  recap,
  score,
  turnCount,
  language,
}: PublishedEndingProps) {
  const headingId = useId();
  const style = endingStyle(endingType);
  // As on the ending screen: a Korean story keeps the ending's Korean name.
  const endingName = language === 'kr' ? endingType : toEnglishEndingType(endingType);
  const highlights = HIGHLIGHTS.filter(([, key]) => recap !== null && recap[key].trim() !== '');

  return (
    <section className={`published-ending published-ending--${style}`} aria-labelledby={headingId}>
      <header className="published-ending__header">
        <span className="published-ending__emblem" aria-hidden="true">
          {EMBLEMS[style]}
        </span>
        <h2 id={headingId} className="published-ending__heading">
          <FormattedMessage id="leaderboard.column.ending" />
        </h2>
        {endingName !== '' && <p className="published-ending__type">{endingName}</p>}
      </header>
      {recap !== null && recap.wrapUpParagraph !== '' && (
        <p className="published-ending__wrapup">{recap.wrapUpParagraph}</p>
      )}
      {highlights.length > 0 && (
        <dl className="published-ending__highlights">
          {highlights.map(([labelId, key]) => (
            <div key={key}>
              <dt>
                <FormattedMessage id={labelId} />
              </dt>
              <dd>{recap?.[key]}</dd>
            </div>
          ))}
        </dl>
      )}
      <EndingFigures score={score} turnCount={turnCount} />
    </section>
  );
}

/** The score, when the story has one, and how many turns it took. */
function EndingFigures({ score, turnCount }: { score: number | null; turnCount: number }) {
  return (
    <dl className="published-ending__figures">
      {score !== null && (
        <div>
          <dt>
            <FormattedMessage id="game.ending.score.heading" />
          </dt>
          <dd className="published-ending__score">
            <FormattedNumber value={score} />
          </dd>
        </div>
      )}
      <div>
        <dt>
          <FormattedMessage id="leaderboard.column.turns" />
        </dt>
        <dd>
          <FormattedNumber value={turnCount} />
        </dd>
      </div>
    </dl>
  );
}

import { useId, type ReactNode } from 'react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { endingStyle } from '../../../engine/score';
import type { Language } from '../../../engine/types';
import {
  EndingEmblem,
  EndingHighlights,
  EndingTypeName,
  endingMoodClass,
} from '../../game/sharedViews';
import type { PublishedRecap } from './publishedStoryApi';

interface PublishedEndingProps {
  endingType: string;
  recap: PublishedRecap | null;
  score: number | null;
  turnCount: number;
  language: Language;
  /** The ending's picture, when the story has one. */
  picture?: ReactNode;
}

/**
 * How the story ended: its type, the recap's wrap-up and highlights, the score and turns. The
 * emblem, the name and the highlights are the ending screen's own, in its moods.
 */
export function PublishedEnding({
  endingType,
  recap,
  score,
  turnCount,
  language,
  picture,
}: PublishedEndingProps) {
  const headingId = useId();
  const style = endingStyle(endingType);

  return (
    <section className={`published-ending ${endingMoodClass(style)}`} aria-labelledby={headingId}>
      <header className="published-ending__header">
        <EndingEmblem endingStyle={style} />
        <h2 id={headingId} className="published-ending__heading">
          <FormattedMessage id="leaderboard.column.ending" />
        </h2>
        {/* As on the ending screen: a Korean story keeps the ending's Korean name. */}
        <EndingTypeName endingType={endingType} korean={language === 'kr'} />
      </header>
      {picture}
      {recap !== null && recap.wrapUpParagraph !== '' && (
        <p className="published-ending__wrapup">{recap.wrapUpParagraph}</p>
      )}
      {recap !== null && <EndingHighlights recap={recap} />}
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

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { useNavigate } from 'react-router-dom';
import { endingScore, endingStyle } from '../../../engine/score';
import { gameResultOf, type GameResult } from '../gameModel';
import { gameActions, selectStory } from '../gameSlice';
import { EndingEmblem, EndingHighlights, EndingTypeName, endingMoodClass } from './WrittenStory';
import { EndingScore } from './EndingScore';
import { EndingStats, PerformanceBars } from './EndingPerformance';
import { portraitSrc } from '../portraits';
import type { PictureSlot } from './StoryLog';
import './play.css';

/** SPEC.md section 2, view 8: the recap, the score and its formula, and what to do next. */
export interface EndingViewProps {
  /** Save Adventure Results for this game: the leaderboard's button, put in by the app. */
  saveResult?: (result: GameResult) => ReactNode;
  /** Under Save Adventure Results: the stories feature's note that local copies were deleted. */
  resultNote?: ReactNode;
  /** Publish this story: the stories feature's button, put in by the app. */
  publishStory?: ReactNode;
  /** The picture of the ending, where the story is illustrated (issue 41). */
  pictureAt?: PictureSlot;
}

export function EndingView({
  saveResult,
  resultNote,
  publishStory,
  pictureAt,
}: EndingViewProps = {}) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const game = useAppSelector(selectStory);
  const { playerStats, scoreBreakdown } = game;
  const titleRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const highlightsId = useId();

  // The story view has gone: tell screen readers, and keyboards, where they are now.
  useEffect(() => titleRef.current?.focus(), []);

  const { recap } = game;
  const result = gameResultOf(game);
  if (recap === null || result === null) {
    return (
      <p className="page-loading" role="status">
        <FormattedMessage id="game.ending.writing" />
      </p>
    );
  }

  const style = endingStyle(recap.endingType);
  // The formula's terms, to show how the result's score was reached.
  const parts = endingScore({
    scoreBreakdown,
    turnCount: game.turnCount,
    successRate: playerStats.successRate,
    endingType: recap.endingType,
  });

  return (
    <article className={`ending ${endingMoodClass(style)}`} aria-labelledby={titleId}>
      <header className="ending__header">
        <EndingEmblem endingStyle={style} />
        <h1 id={titleId} ref={titleRef} tabIndex={-1} className="ending__title">
          <FormattedMessage id="game.ending.title" />
        </h1>
        <EndingTypeName
          endingType={recap.endingType}
          korean={intl.locale.startsWith('ko')}
          label={
            <span className="visually-hidden">
              <FormattedMessage id="game.ending.typeLabel" />{' '}
            </span>
          }
        />
      </header>

      <div className="ending__character">
        <img
          className="ending__portrait"
          src={portraitSrc(game.chosenImage)}
          alt={intl.formatMessage(
            { id: 'game.character.portraitAlt' },
            { name: game.chosenCharacter },
          )}
          width={256}
          height={256}
        />
        <p className="ending__name">{game.chosenCharacter}</p>
      </div>

      {pictureAt?.('ending')}
      <p className="ending__wrapup">{recap.wrapUpParagraph}</p>

      <section className="ending-section" aria-labelledby={highlightsId}>
        <h2 id={highlightsId}>
          <FormattedMessage id="game.ending.highlights" />
        </h2>
        <EndingHighlights recap={recap} />
      </section>

      <EndingScore score={result.score} parts={parts} rewrites={game.rewrites} />
      <PerformanceBars scoreBreakdown={scoreBreakdown} />
      <EndingStats playerStats={playerStats} />

      <div className="ending__actions">
        {saveResult?.(result)}
        {resultNote}
        {publishStory}
        <div className="button-row">
          <button
            type="button"
            onClick={() => {
              dispatch(gameActions.returnedHome());
              navigate('/');
            }}
          >
            <FormattedMessage id="common.returnHome" />
          </button>
          <button
            type="button"
            className="button primary"
            onClick={() => dispatch(gameActions.newGameStarted())}
          >
            <FormattedMessage id="game.ending.newGame" />
          </button>
        </div>
      </div>
    </article>
  );
}

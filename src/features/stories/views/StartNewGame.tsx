import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { gameActions } from '../../game';
import { selectUnfinishedStory, storiesActions } from '../storiesSlice';
import { SAVED_TIME_FORMAT, storyTitle, storyTurns } from './storyFacts';
import './stories.css';

/**
 * Start New Game on the load-or-create screen. With an unfinished saved story for this wallet,
 * it first asks whether to continue that one (SPEC.md section 8, Story actions).
 */
export function StartNewGame() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const unfinished = useAppSelector(selectUnfinishedStory);
  const [asking, setAsking] = useState(false);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  // Focus follows the question: onto it when asked, back to Start New Game when put away.
  useEffect(() => {
    if (asking) headingRef.current?.focus();
    else if (wasAsking.current) startRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const startNew = () => dispatch(gameActions.newGameStarted());

  if (asking && unfinished) {
    const name = storyTitle(intl, unfinished);
    const turns = storyTurns(unfinished);
    return (
      <section
        className="continue-prompt"
        aria-labelledby={headingId}
        onKeyDown={(event) => event.key === 'Escape' && setAsking(false)}
      >
        <h3 id={headingId} ref={headingRef} tabIndex={-1}>
          <FormattedMessage id="stories.continue.heading" />
        </h3>
        <p>
          <FormattedMessage
            id="stories.continue.body"
            values={{
              name,
              genre: unfinished.chosenGenre,
              turns,
              time: intl.formatDate(unfinished.lastSaved, SAVED_TIME_FORMAT),
            }}
          />
        </p>
        <p className="muted">
          <FormattedMessage id="stories.continue.note" />
        </p>
        <div className="continue-prompt__actions">
          <button
            type="button"
            className="button primary"
            onClick={() => dispatch(storiesActions.loadRequested(unfinished.id))}
          >
            <FormattedMessage id="stories.continue.yes" values={{ name }} />
          </button>
          <button type="button" onClick={startNew}>
            <FormattedMessage id="stories.continue.no" />
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            <FormattedMessage id="stories.continue.back" />
          </button>
        </div>
      </section>
    );
  }

  return (
    <button
      type="button"
      ref={startRef}
      className="button primary start-card__action"
      onClick={() => (unfinished ? setAsking(true) : startNew())}
    >
      <FormattedMessage id="game.start.new.button" />
    </button>
  );
}

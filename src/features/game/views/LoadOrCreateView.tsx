import { useId, useRef, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch } from '../../../shared/hooks';
import { gameActions } from '../gameSlice';
import { ModelReplaced } from './troubles';
import './setup.css';

export interface LoadOrCreateViewProps {
  /** The saved-stories list (SPEC.md section 2, view 2), from the stories feature. */
  savedStories?: ReactNode;
  /** Start New Game; the stories feature's own first asks about an unfinished story. */
  startNewGame?: ReactNode;
}

/** SPEC.md section 2, view 2: start a new adventure or continue a saved one. */
export function LoadOrCreateView({
  savedStories = <NoSavedStories />,
  startNewGame = <StartNewGameButton />,
}: LoadOrCreateViewProps = {}) {
  const headingId = useId();
  const savedHeadingId = useId();
  const savedSection = useRef<HTMLElement>(null);

  /** 'Continue Adventure' scrolls to the list (SPEC.md) and moves focus there with it. */
  function showSavedStories() {
    const section = savedSection.current;
    if (!section) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;
    section.scrollIntoView?.({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
    section.focus({ preventScroll: true });
  }

  return (
    <section className="setup-view start-view" aria-labelledby={headingId}>
      <h1 id={headingId} className="setup-view__title">
        <FormattedMessage id="game.start.heading" />
      </h1>
      <ModelReplaced />
      <div className="start-view__cards">
        <article className="panel start-card">
          <h2>
            <FormattedMessage id="game.start.new.title" />
          </h2>
          <p className="muted">
            <FormattedMessage id="game.start.new.body" />
          </p>
          {startNewGame}
        </article>
        <article className="panel start-card">
          <h2>
            <FormattedMessage id="game.start.continue.title" />
          </h2>
          <p className="muted">
            <FormattedMessage id="game.start.continue.body" />
          </p>
          <button type="button" className="button start-card__action" onClick={showSavedStories}>
            <FormattedMessage id="game.start.continue.button" />
          </button>
        </article>
      </div>
      <section
        ref={savedSection}
        className="panel saved-stories"
        aria-labelledby={savedHeadingId}
        tabIndex={-1}
      >
        <h2 id={savedHeadingId}>
          <FormattedMessage id="game.start.saved.heading" />
        </h2>
        {savedStories}
      </section>
    </section>
  );
}

/** SPEC.md section 4: Start New Game goes to genre selection. */
function StartNewGameButton() {
  const dispatch = useAppDispatch();
  return (
    <button
      type="button"
      className="button primary start-card__action"
      onClick={() => dispatch(gameActions.newGameStarted())}
    >
      <FormattedMessage id="game.start.new.button" />
    </button>
  );
}

/** The list area when no saved stories are passed in: truthfully, there are none. */
export function NoSavedStories() {
  return (
    <p className="saved-stories__empty muted">
      <FormattedMessage id="game.start.saved.empty" />
    </p>
  );
}

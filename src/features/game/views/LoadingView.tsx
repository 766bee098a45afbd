import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { shallowEqual } from 'react-redux';
import { gameActions, selectGame, type GameState, type GameWait } from '../gameSlice';
import { canStop } from '../turn/turnRules';
import { StopButton } from './LoadingOverlay';
import { LimitOffer } from './LimitOffer';
import { ProblemDetail } from './ProblemDetail';
import './setup.css';
import { WaitWords } from './troubles';

/** SPEC.md section 9: one block per 10 percent. */
export const PROGRESS_BLOCKS = 10;

/** What the opening's screen shows, read from its phase. */
function selectOpening(state: { game: GameState }) {
  const game = selectGame(state);
  const { turn } = game;
  const opening = turn.phase === 'opening' ? turn : null;
  return {
    loadingProgress: opening?.progress ?? 0,
    wait: opening?.wait ?? null,
    thinking: opening?.thinking ?? false,
    failed: turn.phase === 'openingFailed',
    errorDetail: turn.phase === 'openingFailed' ? turn.problem : null,
    stoppable: canStop(game),
  };
}

/** SPEC.md section 2, view 6: the opening is being written; waits and failures are shown. */
export function LoadingView() {
  const dispatch = useAppDispatch();
  const { loadingProgress, wait, thinking, failed, errorDetail, stoppable } = useAppSelector(
    selectOpening,
    shallowEqual,
  );

  return (
    <section className="panel narrow setup-view loading-view">
      {failed ? (
        <div className="setup-error loading-view__failed" role="alert">
          <p>
            {/* SPEC.md section 8's words, only when the retries really ran out. */}
            <FormattedMessage
              id={
                errorDetail?.reason === 'retriesExhausted'
                  ? 'game.loading.failed'
                  : 'game.loading.notStarted'
              }
            />
          </p>
          {errorDetail && errorDetail.reason !== 'retriesExhausted' && (
            <ProblemDetail problem={errorDetail} className="setup-error__detail" />
          )}
          {errorDetail && (
            <LimitOffer
              problem={errorDetail}
              onContinue={() => dispatch(gameActions.openingRetryRequested())}
            />
          )}
          <div className="setup-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => dispatch(gameActions.openingRetryRequested())}
            >
              <FormattedMessage id="game.loading.tryAgain" />
            </button>
            <button
              type="button"
              className="button"
              onClick={() => dispatch(gameActions.returnedHome())}
            >
              <FormattedMessage id="common.returnHome" />
            </button>
          </div>
        </div>
      ) : (
        <>
          <StoryProgress percent={loadingProgress} />
          {/* Back to the name, with the genre, portrait and name kept. */}
          {stoppable && !wait && (
            <div className="setup-actions">
              <StopButton onStop={() => dispatch(gameActions.writingStopped())} />
            </div>
          )}
          {/* Always in the page, so that screen readers announce what appears in it. */}
          <div className="loading-view__status" role="status">
            {thinking && !wait && (
              <p className="loading-view__thinking">
                <FormattedMessage id="game.play.thinking" />
              </p>
            )}
            {wait && (
              <WaitNotice
                // A new wait is a new notice: its countdown starts from the current time.
                key={`${wait.reason}-${wait.attempt}-${wait.retryAt}`}
                wait={wait}
                onCancel={() => {
                  dispatch(gameActions.waitCancelled());
                  dispatch(gameActions.returnedHome());
                }}
              />
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** The progress bar: filled blocks are solid and the percentage is written, not just coloured. */
export function StoryProgress({ percent }: { percent: number }) {
  const labelId = useId();
  const value = Math.round(Math.min(100, Math.max(0, percent)));
  const filled = Math.floor(value / (100 / PROGRESS_BLOCKS));
  return (
    <div className="story-progress">
      <p id={labelId} className="story-progress__label">
        <FormattedMessage id="game.loading.label" />
      </p>
      <div
        className="story-progress__bar"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
      >
        {Array.from({ length: PROGRESS_BLOCKS }, (_, index) => (
          <span
            key={index}
            className={`story-progress__block${index < filled ? ' story-progress__block--filled' : ''}`}
            data-filled={index < filled}
          />
        ))}
      </div>
      <p className="story-progress__percent" aria-hidden="true">
        <FormattedMessage id="game.loading.percent" values={{ percent: value }} />
      </p>
    </div>
  );
}

interface WaitNoticeProps {
  wait: GameWait;
  onCancel: () => void;
}

/** DESIGN.md: endless retries stay visible and cancellable (inside the view's status region). */
export function WaitNotice({ wait, onCancel }: WaitNoticeProps) {
  return (
    <div className="loading-wait">
      <p className="loading-wait__text">
        <WaitWords wait={wait} />
      </p>
      <button type="button" className="button" onClick={onCancel}>
        <FormattedMessage id="game.wait.cancel" />
      </button>
    </div>
  );
}

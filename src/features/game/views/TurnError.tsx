import { FormattedMessage } from 'react-intl';
import type { Problem } from '../gameSlice';
import { LimitOffer } from './LimitOffer';
import { ProblemDetail } from './ProblemDetail';

interface TurnErrorProps {
  /** What caused it, shown under the catalogue message. */
  detail: Problem | null;
  onRetry: () => void;
}

/** SPEC.md section 8: 'Failed to fetch story data, please try again.' with a way to retry. */
export function TurnError({ detail, onRetry }: TurnErrorProps) {
  return (
    <div className="turn-error">
      <div role="alert">
        <p className="turn-error__message">
          <span className="error-icon" aria-hidden="true">
            !
          </span>
          <FormattedMessage id="game.play.turnFailed" />
        </p>
        {detail && <ProblemDetail problem={detail} className="turn-error__detail" />}
      </div>
      {detail && <LimitOffer problem={detail} onContinue={onRetry} />}
      <button type="button" className="button primary" onClick={onRetry}>
        <FormattedMessage id="game.play.tryAgain" />
      </button>
    </div>
  );
}

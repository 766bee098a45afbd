import { FormattedMessage } from 'react-intl';

interface TurnErrorProps {
  /** The cause as the provider put it, shown under the catalogue message. */
  detail: string | null;
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
        {detail && <p className="turn-error__detail">{detail}</p>}
      </div>
      <button type="button" className="button primary" onClick={onRetry}>
        <FormattedMessage id="game.play.tryAgain" />
      </button>
    </div>
  );
}

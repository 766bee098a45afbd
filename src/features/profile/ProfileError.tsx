import { FormattedMessage } from 'react-intl';
import { Link } from '../../shared/links';

/** SPEC.md section 8, Profile: the error box, with Retry and Return to Home. */
export function ProfileError({ messageId, onRetry }: { messageId: string; onRetry?: () => void }) {
  return (
    <div className="profile-error">
      <p role="alert" className="profile-error__message">
        <span aria-hidden="true" className="error-icon">
          !
        </span>
        <FormattedMessage id={messageId} />
      </p>
      <div className="profile-error__actions">
        {onRetry && (
          <button type="button" className="button" onClick={onRetry}>
            <FormattedMessage id="common.retry" />
          </button>
        )}
        <Link className="button primary" to="/">
          <FormattedMessage id="common.returnHome" />
        </Link>
      </div>
    </div>
  );
}

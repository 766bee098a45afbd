import { FormattedMessage } from 'react-intl';
import { Link } from '../../../shared/links';

/** Back to the game's start: the one thing a reader may want next. */
export function PlayLink() {
  return (
    <Link className="button primary" to="/">
      <FormattedMessage id="published.play" />
    </Link>
  );
}

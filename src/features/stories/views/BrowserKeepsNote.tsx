import { FormattedMessage, useIntl } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import { selectCloudSaves } from '../../settings';
import { selectWalletSession } from '../../wallet';
import { selectStoragePersistence } from '../storiesSlice';
import { CLOUD_SAVES_TOGGLE_ID } from './CloudSavesSetting';
import { isSafari } from './safari';

/** Takes the player to 'Keep my stories with my wallet', where they choose it themselves. */
function showWalletSetting() {
  document.getElementById(CLOUD_SAVES_TOGGLE_ID)?.focus();
}

/**
 * Under the saved stories (DESIGN.md, "Stories the browser keeps"): a line when the browser has
 * promised to keep them; where it has not and they are not kept with the wallet either, what may
 * happen to them and the two ways to keep them. Nothing while the browser has not said, or has
 * no way to: there is nothing true to tell then. Cloud saves count once the wallet is signed in
 * too, for only then does a save go up.
 */
export function BrowserKeepsNote() {
  const intl = useIntl();
  const persistence = useAppSelector(selectStoragePersistence);
  const cloudSaves = useAppSelector(selectCloudSaves);
  const signedIn = useAppSelector(selectWalletSession) !== null;

  if (persistence === 'persisted') {
    return (
      <p className="browser-keeps browser-keeps--promised">
        <span className="browser-keeps__tick" aria-hidden="true">
          ✓
        </span>
        <FormattedMessage id="stories.keeping.promised" />
      </p>
    );
  }
  if (persistence !== 'notPersisted' || (cloudSaves && signedIn)) return null;

  const safari = typeof navigator !== 'undefined' && isSafari(navigator.userAgent);
  const exportJson = <strong>{intl.formatMessage({ id: 'stories.card.exportJson' })}</strong>;
  return (
    <div className="browser-keeps browser-keeps--not-promised">
      <p className="browser-keeps__lead">
        <FormattedMessage
          id={safari ? 'stories.keeping.mayDeleteSafari' : 'stories.keeping.mayDelete'}
        />
      </p>
      <p>
        <FormattedMessage id="stories.keeping.ways" />
      </p>
      <ul className="browser-keeps__ways">
        <li>
          <button type="button" className="browser-keeps__wallet" onClick={showWalletSetting}>
            <FormattedMessage id="stories.keeping.wallet" />
          </button>{' '}
          <FormattedMessage id="stories.keeping.walletHow" />
        </li>
        <li>
          <FormattedMessage id="stories.keeping.export" values={{ exportJson }} />
        </li>
      </ul>
      <p className="muted">
        <FormattedMessage id="stories.keeping.apiKey" />
      </p>
    </div>
  );
}

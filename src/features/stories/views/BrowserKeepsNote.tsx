import { FormattedMessage, useIntl } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import { selectCloudSaves } from '../../settings';
import { selectWalletSession } from '../../wallet';
import { isSafari } from './safari';
import './keeping.css';

/**
 * Takes the player to 'Keep my stories with my wallet' (CloudSavesSetting.tsx, above the list),
 * where they choose it themselves.
 */
function showWalletSetting() {
  document.querySelector<HTMLInputElement>('.cloud-saves__toggle input')?.focus();
}

/**
 * DESIGN.md, "Stories the browser keeps": one calm line when the browser has promised to keep
 * the saved stories. When it has not: what may happen to them (Safari named in Safari), the two
 * ways to keep them, and the API key, which would go with them; unless they are kept with the
 * wallet already (cloud saves on and the wallet signed in: only then does a save go up).
 */
export function BrowserKeepsNote({ persisted }: { persisted: boolean }) {
  const intl = useIntl();
  const cloudSaves = useAppSelector(selectCloudSaves);
  const signedIn = useAppSelector(selectWalletSession) !== null;
  if (persisted) {
    return (
      <p className="browser-keeps browser-keeps--promised">
        <span className="browser-keeps__tick" aria-hidden="true">
          ✓
        </span>
        <FormattedMessage id="keeping.promised" />
      </p>
    );
  }
  if (cloudSaves && signedIn) return null;
  const safari = isSafari(navigator.userAgent);
  const exportJson = <strong>{intl.formatMessage({ id: 'stories.card.exportJson' })}</strong>;
  return (
    <div className="browser-keeps browser-keeps--not-promised">
      <p className="browser-keeps__lead">
        <FormattedMessage id={safari ? 'keeping.mayDeleteSafari' : 'keeping.mayDelete'} />
      </p>
      <p>
        <FormattedMessage id="keeping.ways" />
      </p>
      <ul className="browser-keeps__ways">
        <li>
          <button type="button" className="browser-keeps__wallet" onClick={showWalletSetting}>
            <FormattedMessage id="keeping.wallet" />
          </button>{' '}
          <FormattedMessage id="keeping.walletHow" />
        </li>
        <li>
          <FormattedMessage id="keeping.export" values={{ exportJson }} />
        </li>
      </ul>
      <p className="muted">
        <FormattedMessage id="keeping.apiKey" />
      </p>
    </div>
  );
}

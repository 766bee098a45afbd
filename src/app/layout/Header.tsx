import { FormattedMessage, useIntl } from 'react-intl';
import { Link, NavLink } from 'react-router-dom';
import { LanguageSelect } from '../../features/settings';
import { WalletControl } from '../../features/wallet';
import { Logo } from './Logo';

/** The common header: navigation, the site title with its logo, the wallet slot, Language. */
export function Header() {
  const intl = useIntl();
  return (
    <header className="site-header">
      <Link to="/" className="site-title">
        <Logo />
        <span>
          <FormattedMessage id="app.title" />
        </span>
      </Link>
      <nav className="site-nav" aria-label={intl.formatMessage({ id: 'nav.label' })}>
        <NavLink to="/" end>
          <FormattedMessage id="nav.home" />
        </NavLink>
        <NavLink to="/leaderboard">
          <FormattedMessage id="nav.leaderboard" />
        </NavLink>
      </nav>
      <div className="site-tools">
        <WalletControl />
        <LanguageSelect />
      </div>
    </header>
  );
}

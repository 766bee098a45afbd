import { useLayoutEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, NavLink } from '../../shared/links';
import { LanguageSelect } from '../../features/settings/views';
import { WalletControl } from '../../features/wallet';
import { Logo } from './Logo';
import './staticShell.css';

/** The common header: navigation, the site title with its logo, the wallet slot, Language. */
export function Header() {
  const intl = useIntl();
  useLayoutEffect(removeStaticShell, []);
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

/**
 * Takes away index.html's app shell, the bar painted before any script ran, once this header
 * stands in its place; a layout effect, so no frame shows both or neither.
 */
function removeStaticShell() {
  document.getElementById('static-shell')?.remove();
}

import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router-dom';

/** /profile without a connected wallet (SPEC.md section 2, Profile). */
export function ProfilePage() {
  return (
    <section className="panel narrow">
      <h1>
        <FormattedMessage id="profile.noWallet.title" />
      </h1>
      <p>
        <FormattedMessage id="profile.noWallet.body" />
      </p>
      <Link className="button primary" to="/">
        <FormattedMessage id="common.returnHome" />
      </Link>
    </section>
  );
}

import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from '../../shared/links';
import { useWalletSession } from '../wallet';
import { AccountBenefits } from './AccountBenefits';
import { AccountSection } from './AccountSection';
import { GameStatisticsPanel } from './GameStatistics';
import { ProfileError } from './ProfileError';
import { useGetUserQuery, type UserProfile } from './profileApi';
import './profile.css';

/** /profile (SPEC.md section 2, Profile): the account, the supporter badge and statistics. */
export function ProfilePage() {
  const session = useWalletSession();
  if (!session) return <NoWallet />;
  // A different wallet starts from a clean page, never with the last one's drafts. The page
  // names the wallet by its address; the endpoints ask the wallet for its token as they send.
  return <ProfileForWallet key={session.address} address={session.address} />;
}

function NoWallet() {
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

function ProfileForWallet({ address }: { address: string }) {
  const user = useGetUserQuery(address);
  if (user.data) return <Profile address={address} user={user.data} />;
  if (user.isError) {
    return (
      <section className="panel narrow">
        <h1>
          <FormattedMessage id="profile.heading" />
        </h1>
        <ProfileError messageId="profile.error.user" onRetry={user.refetch} />
      </section>
    );
  }
  return (
    <p className="page-loading" role="status">
      <FormattedMessage id="profile.loading" />
    </p>
  );
}

function Profile({ address, user }: { address: string; user: UserProfile }) {
  // What the backend holds, updated by this page's own successful saves.
  const [username, setUsername] = useState(user.username ?? '');
  const [followed, setFollowed] = useState(user.twitter_followed);
  const supporter = followed || user.twitter_followed;

  return (
    <div className="profile">
      <h1 className="profile__title">
        <FormattedMessage id="profile.heading" />
      </h1>
      <div className="profile__grid">
        <AccountSection
          address={address}
          savedUsername={username}
          onUsernameSaved={setUsername}
          followed={supporter}
          onFollowConfirmed={() => setFollowed(true)}
        />
        <GameStatisticsPanel address={address} />
        <AccountBenefits address={address} username={username} followed={supporter} />
      </div>
    </div>
  );
}

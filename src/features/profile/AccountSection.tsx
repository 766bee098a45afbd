import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { shortenAddress } from '../../engine/text';
import { SupporterBadge } from './SupporterBadge';
import { UsernameForm } from './UsernameForm';

export interface AccountSectionProps {
  address: string;
  savedUsername: string;
  onUsernameSaved: (username: string) => void;
  followed: boolean;
  onFollowConfirmed: () => void;
}

/** SPEC.md section 2, Profile: the wallet address, the username and the supporter badge. */
export function AccountSection({
  address,
  savedUsername,
  onUsernameSaved,
  followed,
  onFollowConfirmed,
}: AccountSectionProps) {
  return (
    <section className="panel profile-panel profile-account" aria-labelledby="profile-account">
      <h2 id="profile-account">
        <FormattedMessage id="profile.account.heading" />
      </h2>
      <WalletAddress address={address} />
      <UsernameForm address={address} savedUsername={savedUsername} onSaved={onUsernameSaved} />
      <SupporterBadge address={address} followed={followed} onConfirmed={onFollowConfirmed} />
    </section>
  );
}

type CopyState = 'idle' | 'copied' | 'failed';

/** The shortened address with Copy; the spec's alert is an in-page status (DESIGN.md). */
function WalletAddress({ address }: { address: string }) {
  const [copy, setCopy] = useState<CopyState>('idle');

  async function copyAddress() {
    try {
      await navigator.clipboard.writeText(address);
      setCopy('copied');
    } catch {
      // No clipboard (an insecure page) or the browser refused.
      setCopy('failed');
    }
  }

  return (
    <div className="profile-field">
      <span className="profile-field__label" id="profile-address-label">
        <FormattedMessage id="profile.address.label" />
      </span>
      <div className="profile-field__row">
        <code className="profile-address" title={address} aria-labelledby="profile-address-label">
          {shortenAddress(address)}
        </code>
        <button type="button" className="button" onClick={copyAddress}>
          <FormattedMessage id="profile.address.copy" />
        </button>
      </div>
      <p className="profile-status" role="status">
        {copy === 'copied' && (
          <span className="profile-status__text profile-status__text--success">
            <span aria-hidden="true">✓</span>
            <FormattedMessage id="profile.address.copied" />
          </span>
        )}
        {copy === 'failed' && (
          <span className="profile-status__text profile-status__text--error">
            <span aria-hidden="true">✕</span>
            <FormattedMessage id="profile.address.copyFailed" />
          </span>
        )}
      </p>
    </div>
  );
}

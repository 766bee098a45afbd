import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useConfirmFollowMutation } from './profileApi';

/** The product's social account, followed to become a Royal Supporter (SPEC.md section 4). */
export const FOLLOW_URL = 'https://twitter.com/intent/follow?screen_name=TaleweaverGame';

export interface SupporterBadgeProps {
  address: string;
  followed: boolean;
  onConfirmed: () => void;
}

/** SPEC.md section 4, Supporter badge: Follow, then 'Did you follow?' with Confirm, then the badge. */
export function SupporterBadge({ address, followed, onConfirmed }: SupporterBadgeProps) {
  const [askedToConfirm, setAskedToConfirm] = useState(false);
  const [confirmFollow, { isLoading, isError }] = useConfirmFollowMutation();

  if (followed) return <RoyalSupporterBadge />;

  function follow() {
    window.open(FOLLOW_URL, '_blank', 'noopener,noreferrer');
    setAskedToConfirm(true);
  }

  async function confirm() {
    try {
      await confirmFollow(address).unwrap();
      onConfirmed();
    } catch {
      // isError shows the message; the player may try again.
    }
  }

  return (
    <div className="profile-field supporter">
      <h3 className="profile-field__label">
        <FormattedMessage id="profile.supporter.heading" />
      </h3>
      <p className="supporter__invite">
        <FormattedMessage id="profile.supporter.invite" />
      </p>
      <div className="supporter__actions">
        <button type="button" className="button" onClick={follow}>
          <FormattedMessage id="profile.supporter.follow" />
        </button>
        {askedToConfirm && (
          <>
            <span className="supporter__question">
              <FormattedMessage id="profile.supporter.question" />
            </span>
            <button
              type="button"
              className="button primary"
              onClick={confirm}
              disabled={isLoading}
              aria-busy={isLoading}
            >
              <FormattedMessage
                id={isLoading ? 'profile.supporter.processing' : 'profile.supporter.confirm'}
              />
            </button>
          </>
        )}
      </div>
      {isError && !isLoading && (
        <p className="profile-status__text profile-status__text--failed" role="alert">
          <span aria-hidden="true">✕</span>
          <FormattedMessage id="profile.supporter.failed" />
        </p>
      )}
    </div>
  );
}

/** The badge itself: a crest and its name, then what it brings. */
export function RoyalSupporterBadge() {
  return (
    <div className="profile-field supporter supporter--active">
      <div className="royal-badge">
        <Crown />
        <div>
          <p className="royal-badge__name">
            <FormattedMessage id="profile.supporter.badge" />
          </p>
          <SupporterPerks className="royal-badge__perks" />
        </div>
      </div>
    </div>
  );
}

/** What the Royal Supporter badge gives (SPEC.md section 1): the x1.5 multiplier, raffles. */
export function SupporterPerks({ className }: { className: string }) {
  return (
    <ul className={className}>
      <li>
        <FormattedMessage id="profile.supporter.multiplier" />
      </li>
      <li>
        <FormattedMessage id="profile.supporter.raffles" />
      </li>
    </ul>
  );
}

export function Crown({ className = 'royal-badge__crest' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" width="40" height="40" aria-hidden="true">
      <circle cx="16" cy="16" r="15" className="crest__ring" />
      <path className="crest__crown" d="M7 21l-1.5-10 6 4.5L16 8l4.5 7.5 6-4.5L25 21z" />
      <rect className="crest__crown" x="7" y="22.5" width="18" height="2.5" rx="1" />
    </svg>
  );
}

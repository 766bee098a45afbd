import { FormattedMessage } from 'react-intl';
import { shortenAddress } from '../../engine/text';
import { Crown, SupporterPerks } from './SupporterBadge';

export interface AccountBenefitsProps {
  address: string;
  username: string;
  followed: boolean;
}

/** SPEC.md section 2, Profile: the 'Account & Benefits' panel, a summary of both. */
export function AccountBenefits({ address, username, followed }: AccountBenefitsProps) {
  return (
    <section className="panel profile-panel profile-benefits" aria-labelledby="profile-benefits">
      <h2 id="profile-benefits">
        <FormattedMessage id="profile.benefits.heading" />
      </h2>
      <h3 className="benefits__heading">
        <FormattedMessage id="profile.benefits.benefitsHeading" />
      </h3>
      <div className={followed ? 'benefits benefits--active' : 'benefits'}>
        <Crown className="benefits__crest" />
        <div>
          <SupporterPerks className="benefits__list" />
          <p className="benefits__state">
            <span aria-hidden="true">{followed ? '✓ ' : '○ '}</span>
            <FormattedMessage
              id={followed ? 'profile.benefits.active' : 'profile.benefits.locked'}
            />
          </p>
        </div>
      </div>
      <h3 className="benefits__heading">
        <FormattedMessage id="profile.benefits.accountHeading" />
      </h3>
      <dl className="account-summary">
        <div>
          <dt>
            <FormattedMessage id="profile.benefits.wallet" />
          </dt>
          <dd>
            <code title={address}>{shortenAddress(address)}</code>
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="profile.username.label" />
          </dt>
          <dd>
            {username || (
              <span className="muted">
                <FormattedMessage id="profile.benefits.noUsername" />
              </span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

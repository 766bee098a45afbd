import { lazy, Suspense } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../../shared/hooks';
import { loadMessages } from '../../../../shared/messageParts';
import { cloudSavesChosen, selectCloudSaves } from '../../../settings';
import { selectWalletSession } from '../../../wallet';

/** The cloud's own part of the list, and its words, downloaded once a wallet is signed in. */
const CloudStories = lazy(async () => {
  const [views] = await Promise.all([
    import(/* webpackChunkName: "cloud-views" */ './CloudStories'),
    loadMessages('sharing'),
  ]);
  return { default: views.CloudStories };
});

/**
 * 'Keep my stories with my wallet' (off until the player turns it on), said in one sentence,
 * and, for a signed-in wallet, the wallet's stories kept in the cloud: reading them needs no
 * setting (the setting is about sending this device's saves), so a new device finds them.
 */
export function CloudSavesSetting() {
  const dispatch = useAppDispatch();
  const on = useAppSelector(selectCloudSaves);
  const session = useAppSelector(selectWalletSession);
  return (
    <section className="cloud-saves">
      <label className="cloud-saves__toggle">
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => dispatch(cloudSavesChosen(event.currentTarget.checked))}
        />
        <FormattedMessage id="stories.cloud.keep" />
      </label>
      <p className="cloud-saves__explain muted">
        <FormattedMessage id={session ? 'stories.cloud.explain' : 'stories.cloud.signInFirst'} />
      </p>
      {session && (
        <Suspense fallback={null}>
          <CloudStories address={session.address} keeping={on} />
        </Suspense>
      )}
    </section>
  );
}

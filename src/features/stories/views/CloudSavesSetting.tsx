import { lazy, Suspense } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { loadMessages } from '../../../shared/messageParts';
import { cloudSavesChosen, selectCloudSaves } from '../../settings';
import { selectWalletSession } from '../../wallet';

/** The cloud's own part of the list, and its words, downloaded once cloud saves are on. */
const CloudStories = lazy(async () => {
  const [views] = await Promise.all([
    import(/* webpackChunkName: "cloud-views" */ '../cloud/views/CloudStories'),
    loadMessages('sharing'),
  ]);
  return { default: views.CloudStories };
});

/**
 * 'Keep my stories with my wallet' (off until the player turns it on), said in one sentence,
 * and once it is on with a signed-in wallet, the wallet's stories kept elsewhere.
 */
export function CloudSavesSetting() {
  const dispatch = useAppDispatch();
  const on = useAppSelector(selectCloudSaves);
  const signedIn = useAppSelector(selectWalletSession) !== null;
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
        <FormattedMessage id={signedIn ? 'stories.cloud.explain' : 'stories.cloud.signInFirst'} />
      </p>
      {on && signedIn && (
        <Suspense fallback={null}>
          <CloudStories />
        </Suspense>
      )}
    </section>
  );
}

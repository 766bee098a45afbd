import { lazy, Suspense } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../../shared/hooks';
import { loadMessages } from '../../../../shared/messageParts';
import { cloudSavesChosen, selectCloudSaves } from '../../../settings';
import { selectWalletSession } from '../../../wallet';
import { sameWallet } from '../../savedStory';
import { selectCloud, selectSavedStories } from '../../storiesSlice';
import { useCloudStoriesQuery } from '../cloudApi';

/**
 * The cloud's own part of the list, and its words, downloaded once there is something to show:
 * stories the wallet keeps, or this device's saves going up.
 */
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
 * setting (the setting is about sending this device's saves), so a new device finds them. For a
 * signed-in wallet the empty message waits for both lists, and is said only when both are empty.
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
      {session && <WalletCloud address={session.address} keeping={on} />}
    </section>
  );
}

/** The signed-in wallet's cloud list, read here; its views come only when there is something. */
function WalletCloud({ address, keeping }: { address: string; keeping: boolean }) {
  const listed = useCloudStoriesQuery(address);
  const list = useAppSelector(selectSavedStories);
  const sending = useAppSelector(selectCloud).sync.status !== 'idle';
  const cloudCount = listed.data?.length ?? 0;
  const locals = list.status === 'loaded' && sameWallet(list.owner, address) ? list.stories : null;
  const empty = locals?.length === 0 && (listed.isError || (listed.data && cloudCount === 0));
  return (
    <>
      {(keeping || sending || cloudCount > 0) && (
        <Suspense fallback={null}>
          <CloudStories address={address} keeping={keeping} />
        </Suspense>
      )}
      {empty && (
        <p className="saved-list__message muted">
          <FormattedMessage id="stories.list.emptyWallet" />
        </p>
      )}
    </>
  );
}

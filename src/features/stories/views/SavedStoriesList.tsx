import { useEffect, useRef, type ChangeEvent } from 'react';
import { FormattedMessage } from 'react-intl';
import { shortenAddress } from '../../../engine/text';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { loadMessages } from '../../../shared/messageParts';
import { onDemand } from '../../../shared/onDemand';
import { selectWalletAddress, selectWalletSession } from '../../wallet';
import { sameWallet, walletOwner } from '../savedStory';
import { selectSavedStories, storiesActions } from '../storiesSlice';
import { BrowserKeeps } from './BrowserKeeps';
import { CloudSavesSetting } from '../cloud/views/CloudSavesSetting';
import './stories.css';

/** A story export is a few hundred kilobytes at most; anything far bigger is not one. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/**
 * The cards come with the first story to show: a player's first game never has one on its
 * start screen, and their code (the card, its downloads, Publish) was 0.8 KB of a whole game's
 * JavaScript over the wire (npm run bench bundle). Their words are in the 'sharing' part.
 */
const SavedStoryCards = onDemand(() =>
  Promise.all([
    import(/* webpackChunkName: "story-cards" */ './SavedStoryCards'),
    loadMessages('sharing'),
  ]).then(([views]) => views.SavedStoryCards),
);

/**
 * SPEC.md section 2, view 2: the wallet's saved stories, with the wallet line and Refresh, the
 * loading, error and empty messages, a card per story, import, and whether the browser keeps
 * them. It loads when shown, and again whenever the wallet changes (the stories saga follows the
 * wallet).
 */
export function SavedStoriesList() {
  const dispatch = useAppDispatch();
  const list = useAppSelector(selectSavedStories);
  const address = useAppSelector(selectWalletAddress);
  const signedIn = useAppSelector(selectWalletSession) !== null;

  const refreshRef = useRef<HTMLButtonElement>(null);
  // The stories on screen are this wallet's: after a switch the old ones go at once.
  const current = sameWallet(list.owner, walletOwner(address));
  const shown = current && list.status !== 'failed' ? list.stories : [];

  useEffect(() => {
    dispatch(storiesActions.savedStoriesRequested());
  }, [dispatch]);

  // A deleted story's card takes the focus with it: it comes back to the list.
  const shownCount = useRef(shown.length);
  useEffect(() => {
    const fewer = shown.length < shownCount.current;
    shownCount.current = shown.length;
    const active = document.activeElement;
    if (fewer && (active === null || active === document.body || !active.isConnected)) {
      refreshRef.current?.focus();
    }
  }, [shown.length]);

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same file can be picked again after a failed import.
    input.value = '';
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      dispatch(storiesActions.storyImportFailed('wrongFormat'));
      return;
    }
    try {
      dispatch(storiesActions.importRequested(await file.text()));
    } catch {
      dispatch(storiesActions.storyImportFailed('notJson'));
    }
  }

  const loading = list.status === 'loading';
  return (
    <div className="saved-list">
      <div className="saved-list__bar">
        <p className="saved-list__owner">
          {address ? (
            <FormattedMessage
              id="stories.list.walletLine"
              values={{ address: <code title={address}>{shortenAddress(address)}</code> }}
            />
          ) : (
            <FormattedMessage id="stories.list.anonymousLine" />
          )}
        </p>
        <div className="saved-list__tools">
          <button
            type="button"
            ref={refreshRef}
            onClick={() => dispatch(storiesActions.savedStoriesRequested())}
            disabled={loading}
          >
            <FormattedMessage id="stories.list.refresh" />
          </button>
          <label className="button saved-list__import">
            <input
              className="saved-list__file visually-hidden"
              type="file"
              accept="application/json,.json"
              onChange={(event) => void importFile(event)}
            />
            <FormattedMessage id="stories.list.import" />
          </label>
        </div>
      </div>

      <CloudSavesSetting />
      {/* Said once there are stories to keep: before the first save the browser is not asked. */}
      {shown.length > 0 && <BrowserKeeps />}

      {loading && (
        <p className="saved-list__message muted" role="status">
          <FormattedMessage id="stories.list.loading" />
        </p>
      )}
      {list.status === 'failed' && (
        <p className="saved-list__message saved-list__message--error" role="alert">
          <span className="error-icon" aria-hidden="true">
            !
          </span>
          <span>
            <FormattedMessage id="stories.list.failed" />
            {list.error && (
              <span className="saved-list__reason">
                <FormattedMessage id={`stories.reason.${list.error}`} />
              </span>
            )}
          </span>
        </p>
      )}
      {/* A signed-in wallet's empty message waits for its cloud list too (CloudStories). */}
      {list.status === 'loaded' && current && shown.length === 0 && !signedIn && (
        <p className="saved-list__message muted">
          <FormattedMessage id={address ? 'stories.list.emptyWallet' : 'stories.list.empty'} />
        </p>
      )}
      {shown.length > 0 && <SavedStoryCards stories={shown} />}
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { storyPath } from '../../../../../common/publishedStory';
import { shortenAddress } from '../../../../engine/text';
import { useAppDispatch, useAppSelector } from '../../../../shared/hooks';
import { selectWalletSession } from '../../../wallet';
import { selectCloud, storiesActions } from '../../storiesSlice';
import { usePublishedAt } from '../usePublishedAt';
import type { PublishTarget } from '../cloudModel';
import '../../views/storyCards.css';
import './cloud.css';

/** Where a published story's page is, on this site. */
export const storyPageUrl = (cloudId: string) => `${window.location.origin}${storyPath(cloudId)}`;

/**
 * Publish, said first: what anyone with the link will read, and what stays private. Once
 * published: the page's address, Copy link, and Unpublish (the page goes at once).
 */
export function PublishPanel({
  target,
  name,
  onClose,
}: {
  target: PublishTarget;
  name: string;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const session = useAppSelector(selectWalletSession);
  const { publishing } = useAppSelector(selectCloud);
  const [copied, setCopied] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  // A copy made on another device publishes under its own id: the panel follows the story.
  const publishedAt = usePublishedAt(target.cloudId);
  const working = publishing.status === 'working' && publishing.storyId === target.cloudId;
  const failed = publishing.status === 'failed' && publishing.storyId === target.cloudId;

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <section className="publish-panel" aria-labelledby={`publish-${target.cloudId}`}>
      <h4 id={`publish-${target.cloudId}`} ref={headingRef} tabIndex={-1}>
        <FormattedMessage
          id={publishedAt ? 'sharing.publish.publishedTitle' : 'sharing.publish.title'}
          values={{ name }}
        />
      </h4>
      {!session ? (
        <p role="alert">
          <FormattedMessage id="sharing.publish.signInFirst" />
        </p>
      ) : publishedAt ? (
        <>
          <p className="publish-panel__link">
            <a href={storyPageUrl(target.cloudId)} target="_blank" rel="noreferrer">
              {storyPageUrl(target.cloudId)}
            </a>
          </p>
          <div className="publish-panel__actions">
            <button type="button" onClick={() => void copy(storyPageUrl(target.cloudId))}>
              <FormattedMessage id={copied ? 'sharing.publish.copied' : 'sharing.publish.copy'} />
            </button>
            <button
              type="button"
              className="button danger"
              disabled={working}
              onClick={() => dispatch(storiesActions.unpublishRequested(target))}
            >
              <FormattedMessage id="sharing.publish.unpublish" />
            </button>
          </div>
        </>
      ) : (
        <>
          <p>
            <FormattedMessage id="sharing.publish.what" />
          </p>
          <ul className="publish-panel__list">
            <li>
              <FormattedMessage id="sharing.publish.whatTitle" />
            </li>
            <li>
              <FormattedMessage id="sharing.publish.whatStory" />
            </li>
            <li>
              <FormattedMessage id="sharing.publish.whatRecap" />
            </li>
            <li>
              <FormattedMessage
                id="sharing.publish.whatWallet"
                values={{ short: shortenAddress(session.address) }}
              />
            </li>
          </ul>
          <p className="muted">
            <FormattedMessage id="sharing.publish.private" />
          </p>
          <div className="publish-panel__actions">
            <button
              type="button"
              className="button primary"
              disabled={working}
              onClick={() => dispatch(storiesActions.publishRequested(target))}
            >
              <FormattedMessage
                id={working ? 'sharing.publish.working' : 'sharing.publish.confirm'}
              />
            </button>
            <button type="button" onClick={onClose}>
              <FormattedMessage id="sharing.publish.cancel" />
            </button>
          </div>
        </>
      )}
      {failed && publishing.problem && (
        <p className="publish-panel__error" role="alert">
          <FormattedMessage id="sharing.publish.failed" />{' '}
          <FormattedMessage id={`stories.reason.${publishing.problem}`} />
        </p>
      )}
      {publishedAt && (
        <button type="button" className="publish-panel__close" onClick={onClose}>
          <FormattedMessage id="sharing.publish.close" />
        </button>
      )}
    </section>
  );
}

import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { storyPreview } from '../../../../engine/text';
import { useAppDispatch, useAppSelector } from '../../../../shared/hooks';
import { portraitNumber, portraitSrc } from '../../../game';
import { sameWallet } from '../../savedStory';
import { selectCloud, selectSavedStories, storiesActions } from '../../storiesSlice';
import { SAVED_TIME_FORMAT } from '../../views/storyFacts';
import { useCloudStoriesQuery } from '../cloudApi';
import { elsewhereOf, type CloudStory } from '../cloudModel';
import { PublishButton } from './PublishButton';
import '../../views/storyCards.css';
import './cloud.css';

/**
 * The cloud's part of the saved stories, for signed-in wallet `address`: how this browser's
 * saves are going up, and the wallet's stories this browser does not keep (another device's),
 * each with Load, Delete and, when finished, Publish. Read whether or not this device keeps its
 * saves with the wallet (`keeping`): when it does not and the wallet keeps stories, one line
 * offers it. Shown once there is something to show (CloudSavesSetting.tsx).
 */
export function CloudStories({ address, keeping }: { address: string; keeping: boolean }) {
  const cloud = useAppSelector(selectCloud);
  const list = useAppSelector(selectSavedStories);
  const listed = useCloudStoriesQuery(address);
  const locals = list.status === 'loaded' && sameWallet(list.owner, address) ? list.stories : null;
  const shown = locals && listed.data ? elsewhereOf(listed.data, locals) : [];
  const { status, problem } = cloud.sync;
  return (
    <div className="cloud-stories">
      <p className="cloud-stories__sync muted" role="status">
        {status === 'sending' && <FormattedMessage id="sharing.sending" />}
        {status !== 'sending' && problem && <FormattedMessage id={`stories.reason.${problem}`} />}
      </p>
      {!keeping && (listed.data?.length ?? 0) > 0 && (
        <p className="cloud-stories__offer">
          <FormattedMessage id="sharing.offer" values={{ count: listed.data?.length ?? 0 }} />
        </p>
      )}
      {shown.length > 0 && (
        <>
          <h3 className="cloud-stories__title">
            <FormattedMessage id="sharing.elsewhereTitle" />
          </h3>
          <ul className="saved-list__cards">
            {shown.map((story) => (
              <li key={story.id}>
                <CloudStoryCard story={story} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function CloudStoryCard({ story }: { story: CloudStory }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const name = story.chosenCharacter;
  return (
    <article className="story-card story-card--cloud" aria-labelledby={titleId}>
      <img
        className="story-card__portrait"
        src={portraitSrc(portraitNumber(story.characterImage) ?? 1)}
        alt={intl.formatMessage({ id: 'stories.card.portraitAlt' }, { name })}
        width={96}
        height={96}
        loading="lazy"
      />
      <div className="story-card__body">
        <h3 id={titleId} className="story-card__name">
          {name} · {story.chosenGenre}
        </h3>
        <p className="story-card__meta">
          <span className="cloud-badge">
            <FormattedMessage id={story.copyOf ? 'sharing.copy' : 'sharing.elsewhere'} />
          </span>
          <span>
            <FormattedMessage
              id="stories.card.saved"
              values={{ time: intl.formatDate(story.savedAt, SAVED_TIME_FORMAT) }}
            />
          </span>
          <span>
            {story.isFinal ? (
              <FormattedMessage id="stories.card.finished" values={{ ending: story.endingType }} />
            ) : (
              <FormattedMessage id="stories.card.turn" values={{ turns: story.turnCount }} />
            )}
          </span>
        </p>
        <p className="story-card__preview">{storyPreview(story.previousParagraph)}</p>
        {confirming ? (
          <div className="story-card__confirm" role="group" aria-labelledby={`${titleId}-confirm`}>
            <p id={`${titleId}-confirm`}>
              <FormattedMessage id="sharing.confirmDelete" values={{ name }} />
            </p>
            <div className="story-card__actions">
              <button
                type="button"
                className="button danger"
                onClick={() => dispatch(storiesActions.cloudDeleteConfirmed(story.id))}
              >
                <FormattedMessage id="stories.card.confirmYes" />
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                <FormattedMessage id="stories.card.confirmNo" />
              </button>
            </div>
          </div>
        ) : (
          <div className="story-card__actions">
            <button
              type="button"
              className="button primary"
              aria-label={intl.formatMessage({ id: 'stories.card.loadLabel' }, { name })}
              onClick={() => dispatch(storiesActions.cloudLoadRequested(story.id))}
            >
              <FormattedMessage id="stories.card.load" />
            </button>
            <button
              type="button"
              aria-label={intl.formatMessage({ id: 'stories.card.deleteLabel' }, { name })}
              onClick={() => setConfirming(true)}
            >
              <FormattedMessage id="stories.card.delete" />
            </button>
            {story.isFinal && (
              <PublishButton target={{ cloudId: story.id, localId: null }} name={name} />
            )}
          </div>
        )}
      </div>
    </article>
  );
}

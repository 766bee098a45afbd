import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import {
  isFailureNotice,
  selectCloud,
  selectOtherTabNotice,
  selectStoriesNotice,
  storiesActions,
  type StoryNotice,
} from '../storiesSlice';
import { OtherTabCard } from './OtherTabCard';
import './stories.css';

/**
 * The saved stories' one notice (SPEC.md section 8: 'Game saved successfully!', 'Story
 * deleted!', ...), floating over whichever game view is shown. Successes go by themselves;
 * failures say why and stay until dismissed. Word that another tab played this story on stays
 * beside them until the player answers it, and so does word that another device did (a save kept
 * as a copy). Both live regions are always present, so screen
 * readers announce what is put into them.
 */
export function StoriesNotice() {
  const notice = useAppSelector(selectStoriesNotice);
  const otherTab = useAppSelector(selectOtherTabNotice);
  const keptAsCopy = useAppSelector(selectCloud).keptAsCopy;
  return (
    <div className="stories-notice-region">
      <div role="status">
        {otherTab && <OtherTabCard notice={otherTab} />}
        {keptAsCopy && <KeptAsCopyCard name={keptAsCopy.name} />}
        {notice && !isFailureNotice(notice) && <NoticeCard notice={notice} />}
      </div>
      <div role="alert">{notice && isFailureNotice(notice) && <NoticeCard notice={notice} />}</div>
    </div>
  );
}

function NoticeCard({ notice }: { notice: StoryNotice }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const failure = isFailureNotice(notice);
  return (
    <div className={`stories-notice ${failure ? 'stories-notice--failure' : ''}`}>
      {failure ? (
        <span className="error-icon" aria-hidden="true">
          !
        </span>
      ) : (
        <span className="stories-notice__tick" aria-hidden="true">
          ✓
        </span>
      )}
      <p className="stories-notice__text">
        <FormattedMessage id={`stories.notice.${notice.kind}`} />
        {notice.reason && (
          <span className="stories-notice__reason">
            {intl.formatMessage({ id: `stories.reason.${notice.reason}` })}
          </span>
        )}
      </p>
      {failure && (
        <button
          type="button"
          className="stories-notice__dismiss"
          onClick={() => dispatch(storiesActions.noticeDismissed(notice.seq))}
        >
          <FormattedMessage id="stories.notice.dismiss" />
        </button>
      )}
    </div>
  );
}

/** Another device had saved this story since: this device's line went up as a copy. */
function KeptAsCopyCard({ name }: { name: string }) {
  const dispatch = useAppDispatch();
  return (
    <div className="stories-notice stories-notice--copy">
      <p className="stories-notice__text">
        <FormattedMessage id="stories.cloud.keptAsCopy" values={{ name }} />
      </p>
      <button
        type="button"
        className="stories-notice__dismiss"
        onClick={() => dispatch(storiesActions.cloudCopyNoticeDismissed())}
      >
        <FormattedMessage id="stories.cloud.dismiss" />
      </button>
    </div>
  );
}

import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { selectStory } from '../../game';
import { storiesActions, type OtherTabNotice } from '../storiesSlice';
import { otherTabTitle } from './storyFacts';

/**
 * Another tab has played this story on (storyRevision.ts). It says so, says where this tab's
 * turns are kept, and offers the other tab's story; it stays until the player answers.
 */
export function OtherTabCard({ notice }: { notice: OtherTabNotice }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const chosenCharacter = useAppSelector(
    (state: Parameters<typeof selectStory>[0]) => selectStory(state).chosenCharacter,
  );
  return (
    <div className="stories-notice stories-notice--other-tab">
      <span className="stories-notice__icon" aria-hidden="true">
        ⇆
      </span>
      <div className="stories-notice__text">
        <p>
          {notice.status === 'branched' ? (
            <FormattedMessage
              id="stories.otherTab.branched"
              values={{ title: otherTabTitle(intl, chosenCharacter) }}
            />
          ) : (
            <FormattedMessage id="stories.otherTab.movedOn" />
          )}
        </p>
        <p className="stories-notice__reason">
          <FormattedMessage id={`stories.otherTab.${notice.status}Hint`} />
        </p>
      </div>
      <div className="stories-notice__actions">
        <button
          type="button"
          className="button primary"
          onClick={() => dispatch(storiesActions.loadRequested(notice.storyId))}
        >
          <FormattedMessage id="stories.otherTab.switch" />
        </button>
        <button type="button" onClick={() => dispatch(storiesActions.otherTabNoticeDismissed())}>
          <FormattedMessage id="stories.otherTab.stay" />
        </button>
      </div>
    </div>
  );
}

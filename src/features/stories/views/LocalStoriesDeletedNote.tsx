import { FormattedMessage } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import { selectLocalStoriesDeleted } from '../storiesSlice';
import './stories.css';

/** The ending screen's note once the result is on the leaderboard (SPEC.md section 4, Saving). */
export function LocalStoriesDeletedNote() {
  const count = useAppSelector(selectLocalStoriesDeleted);
  // Present from the start, so its words are announced when they come.
  return (
    <p className="local-stories-deleted" role="status">
      {count !== null && count > 0 && (
        <FormattedMessage id="stories.localDeleted" values={{ count }} />
      )}
    </p>
  );
}

import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { selectIsResumable } from '../../game';
import { storiesActions } from '../storiesSlice';
import './stories.css';

/**
 * The playing screen's save button (SPEC.md section 4, Saving). It saves at once; the notice
 * says how it went. While a turn is being written there is nothing complete to save.
 */
export function SaveGameButton() {
  const dispatch = useAppDispatch();
  // A boolean, so the button renders only when it changes (never on a streamed frame).
  const resumable = useAppSelector(selectIsResumable);
  return (
    <button
      type="button"
      className="save-game"
      onClick={() => dispatch(storiesActions.saveRequested())}
      disabled={!resumable}
    >
      <FormattedMessage id="stories.save.button" />
    </button>
  );
}

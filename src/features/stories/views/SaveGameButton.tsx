import { FormattedMessage } from 'react-intl';
import { useDispatch, useSelector } from 'react-redux';
import { isResumable, selectGame } from '../../game';
import { storiesActions } from '../storiesSlice';
import './stories.css';

/**
 * The playing screen's save button (SPEC.md section 4, Saving). It saves at once; the notice
 * says how it went. While a turn is being written there is nothing complete to save.
 */
export function SaveGameButton() {
  const dispatch = useDispatch();
  const game = useSelector(selectGame);
  return (
    <button
      type="button"
      className="save-game"
      onClick={() => dispatch(storiesActions.saveRequested())}
      disabled={!isResumable(game)}
    >
      <FormattedMessage id="stories.save.button" />
    </button>
  );
}

import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { autoReadChosen, selectAutoRead } from '../../settings';
import './readAloud.css';

/**
 * The 'Read new paragraphs aloud' box: a setting kept between visits, which
 * useAutoRead follows. Nothing when the browser cannot read the interface language.
 */
export function AutoReadToggle({ available }: { available: boolean }) {
  const autoRead = useAppSelector(selectAutoRead);
  const dispatch = useAppDispatch();
  if (!available) return null;
  return (
    <label className="auto-read-toggle">
      <input
        type="checkbox"
        checked={autoRead}
        onChange={(event) => dispatch(autoReadChosen(event.target.checked))}
      />
      <FormattedMessage id="game.readAloud.auto" />
    </label>
  );
}

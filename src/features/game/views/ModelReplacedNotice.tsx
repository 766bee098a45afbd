import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../shared/hooks';
import { providerSessionActions, selectModelReplaced } from '../../llm';
import { useProviderName } from './providerName';

/**
 * The saved model is one the provider no longer offers (a retired id): the game plays with the
 * curated default instead and says so, once, until the player dismisses it.
 */
export function ModelReplacedNotice() {
  const dispatch = useAppDispatch();
  const replaced = useAppSelector(selectModelReplaced);
  const providerName = useProviderName();
  const messageId = useId();
  if (!replaced) return null;
  return (
    <div className="setup-notice model-notice" role="status">
      <p id={messageId}>
        <FormattedMessage
          id="game.model.replaced"
          values={{
            provider: providerName(replaced.provider),
            from: <code>{replaced.from}</code>,
            to: <code>{replaced.to}</code>,
          }}
        />
      </p>
      <button
        type="button"
        className="button model-notice__dismiss"
        aria-describedby={messageId}
        onClick={() => dispatch(providerSessionActions.modelNoticeDismissed())}
      >
        <FormattedMessage id="game.model.dismiss" />
      </button>
    </div>
  );
}

import { FormattedMessage } from 'react-intl';
import { useAppSelector } from '../../../app/hooks';
import { modelOf, providerById } from '../../llm';
import { selectSettings } from '../../settings';
import type { GameWait } from '../gameSlice';
import { useProviderName } from './providerName';
import { useSecondsUntil } from './useSecondsUntil';

/**
 * What the game is waiting for (DESIGN.md: endless retries stay visible), the same words on the
 * loading screen and over the story: a per-minute limit names its provider and model and counts
 * down to 'Trying again now', garbled or dropped replies say which attempt comes next.
 */
export function WaitMessage({ wait }: { wait: GameWait }) {
  const seconds = useSecondsUntil(wait.retryAt);
  const settings = useAppSelector(selectSettings);
  const providerName = useProviderName();
  const preset = providerById(settings.provider);
  const who = { provider: providerName(preset.id), model: modelOf(preset, settings.model) };
  if (wait.reason !== 'rateLimited') {
    return (
      <FormattedMessage
        id={wait.reason === 'interrupted' ? 'game.wait.interrupted' : 'game.wait.unreadableReply'}
        values={{ attempt: wait.attempt }}
      />
    );
  }
  if (seconds === 0) return <FormattedMessage id="game.wait.retryingNow" values={who} />;
  return (
    <FormattedMessage
      id="game.wait.rateLimited"
      // The countdown ticks visibly; screen readers hear the notice once, not every second.
      values={{ ...who, seconds: <span aria-live="off">{seconds}</span> }}
    />
  );
}

import { FormattedMessage } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import { modelOf, providerById } from '../../llm';
import { selectSettings } from '../../settings';
import type { GameWait } from '../gameSlice';
import { useProviderName } from './providerName';
import { useSecondsUntil } from './useSecondsUntil';

/**
 * What the game is waiting for (DESIGN.md: endless retries stay visible), the same words on the
 * loading screen and over the story: a per-minute limit names its provider and model and counts
 * down to 'Trying again now', garbled or dropped replies say which attempt comes next (after
 * the quick retries, with a countdown and the way out), a cut-off reply that more room is asked.
 */
export function WaitMessage({ wait }: { wait: GameWait }) {
  const seconds = useSecondsUntil(wait.retryAt);
  const settings = useAppSelector(selectSettings);
  const providerName = useProviderName();
  const preset = providerById(settings.provider);
  const who = { provider: providerName(preset.id), model: modelOf(preset, settings.model) };
  if (wait.reason === 'cutOff') {
    return <FormattedMessage id="game.wait.cutOff" values={who} />;
  }
  if (wait.reason === 'unreadableReply' && wait.retryAt !== null) {
    // Past the quick retries: a pause, and the way out (DESIGN.md, "Retries are visible,
    // cancellable and honest").
    return (
      <FormattedMessage
        id="game.wait.unreadablePause"
        values={{ ...who, attempt: wait.attempt, seconds: <span aria-live="off">{seconds}</span> }}
      />
    );
  }
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

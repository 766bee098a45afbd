import { FormattedMessage } from 'react-intl';
import type { GameWait } from '../gameSlice';
import { useSecondsUntil } from './useSecondsUntil';

/**
 * What the game is waiting for (DESIGN.md: endless retries stay visible), the same words on the
 * loading screen and over the story: a rate limit counts down to 'Trying again now', garbled or
 * dropped replies say which attempt comes next.
 */
export function WaitMessage({ wait }: { wait: GameWait }) {
  const seconds = useSecondsUntil(wait.retryAt);
  if (wait.reason !== 'rateLimited') {
    return (
      <FormattedMessage
        id={wait.reason === 'interrupted' ? 'game.wait.interrupted' : 'game.wait.unreadableReply'}
        values={{ attempt: wait.attempt }}
      />
    );
  }
  if (seconds === 0) return <FormattedMessage id="game.wait.retryingNow" />;
  return (
    <FormattedMessage
      id="game.wait.rateLimited"
      // The countdown ticks visibly; screen readers hear the notice once, not every second.
      values={{ seconds: <span aria-live="off">{seconds}</span> }}
    />
  );
}

import { FormattedMessage, FormattedNumber } from 'react-intl';
import { useAppSelector } from '../../../shared/hooks';
import { modelOf, providerById } from '../../llm';
import { selectSettings } from '../../settings';
import type { GameWait } from '../gameSlice';
import { useMinuteLimit } from './minuteLimit';
import { useProviderName } from './providerName';
import { useSecondsUntil } from '../../../shared/useSecondsUntil';

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
  return (
    <>
      {seconds === 0 ? (
        <FormattedMessage id="game.wait.retryingNow" values={who} />
      ) : (
        <FormattedMessage
          id="game.wait.rateLimited"
          // The countdown ticks visibly; screen readers hear the notice once, not every second.
          values={{ ...who, seconds: <span aria-live="off">{seconds}</span> }}
        />
      )}
      {wait.reserves !== undefined && <Reserves tokens={wait.reserves} model={who.model} />}
    </>
  );
}

/**
 * What the request asked again reserves of the minute's budget (the prompt and its whole output
 * limit, as free tiers count it), of the limit the provider stated for this model where it did.
 */
function Reserves({ tokens, model }: { tokens: number; model: string }) {
  const settings = useAppSelector(selectSettings);
  const limit = useMinuteLimit(providerById(settings.provider), settings.baseUrl, model);
  const values = { tokens: <FormattedNumber value={tokens} /> };
  return (
    <>
      {' '}
      {limit === null ? (
        <FormattedMessage id="game.wait.reserves" values={values} />
      ) : (
        <FormattedMessage
          id="game.wait.reservesOfLimit"
          values={{ ...values, limit: <FormattedNumber value={limit} /> }}
        />
      )}
    </>
  );
}

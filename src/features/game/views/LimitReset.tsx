import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import './limitOffer.css';

/** When a daily cap resets: how long from now, and the time on the player's clock. */
export function LimitReset({ resetsAt }: { resetsAt: number }) {
  const intl = useIntl();
  // Read once, when the notice appears: it says when, it does not count down.
  const [now] = useState(() => Date.now());
  const seconds = Math.max(0, Math.round((resetsAt - now) / 1000));
  const [value, unit] =
    seconds >= 3600
      ? [Math.round(seconds / 360) / 10, 'hour' as const]
      : seconds >= 60
        ? [Math.ceil(seconds / 60), 'minute' as const]
        : [seconds, 'second' as const];
  return (
    <p className="limit-offer__reset">
      <FormattedMessage
        id="game.limit.resets"
        values={{
          when: intl.formatRelativeTime(value, unit, { numeric: 'auto' }),
          time: intl.formatTime(resetsAt, { hour: 'numeric', minute: '2-digit' }),
        }}
      />
    </p>
  );
}
